import KindredRuntime

/// `kindred-social keys rotate-data`.
enum SocialCommands {
    static let all = [rotateData]

    /// Seals every message body and event payload under the first data key; safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "social") { environment, cipher in
        [
            MessageBodyRotation(database: environment.database, bodies: MessageBodies(cipher: cipher)),
            SealedEventOutbox(SocialEvents.outbox, cipher: cipher, on: environment.database),
        ]
    }
}
