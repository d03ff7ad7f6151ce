import KindredAuth
import KindredHandlers

/// Message bodies as they are stored: sealed under social's data keys (`FieldCipher`, AES-256-GCM), each bound
/// to its message, so a dump of the database holds no message text and a body moved to another message does
/// not open. Bodies stored before sealing began are plaintext until `keys rotate-data` seals them.
struct MessageBodies: Sendable {
    let cipher: FieldCipher

    /// `body` sealed for message `id`.
    func seal(_ body: String, of id: MessageID) -> [UInt8] {
        cipher.seal(Array(body.utf8), context: Self.context(id))
    }

    /// The text of message `id`, from whichever of its two columns holds it.
    func open(plain: String?, sealed: [UInt8]?, of id: MessageID) throws -> String {
        if let sealed {
            return String(decoding: try cipher.open(sealed, context: Self.context(id)), as: UTF8.self)
        }
        return plain ?? ""
    }

    private static func context(_ id: MessageID) -> String { "social.messages.body/\(id)" }
}
