import FoundationEssentials
import KindredRuntime

/// `kindred-social keys rotate-data`.
enum SocialCommands {
    static let all = [rotateData]

    /// Seals every message body under the first data key; safe while instances serve.
    static let rotateData = ServiceCommand(
        words: ["keys", "rotate-data"],
        summary: "Seal every message body under the first data key (needs the database and the data keys).",
        action: .withDatabase { environment in
            let bodies = try MessageBodies.configured(in: ProcessInfo.processInfo.environment)
            let sealed = try await MessageBodyRotation(database: environment.database, bodies: bodies).run()
            environment.logger.notice(
                "message bodies sealed under the current data key",
                metadata: ["key": "\(bodies.cipher.keyring.current.id)", "sealed": "\(sealed)"])
            print(sealed)
        })
}
