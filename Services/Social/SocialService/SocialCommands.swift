import KindredRuntime

/// `kindred-social keys rotate-data`.
enum SocialCommands {
    static let all = [rotateData]

    /// Seals every message body under the first data key; safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "social") { environment, cipher in
        [MessageBodyRotation(database: environment.database, bodies: MessageBodies(cipher: cipher))]
    }
}
