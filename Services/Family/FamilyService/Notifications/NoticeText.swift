import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRuntime

/// A notice's title and body as `family.notifications` and `family.push_outbox` keep them: sealed together
/// under family's data keys (family migration 26), so a dump shows no baby's name, event or comment quoted in a
/// notice. The value is bound to the notice's kind, not to its row: one post writes the same sealed text to
/// every recipient and every device in one statement, before their rows exist. Rows from before sealing keep
/// their plaintext title and body until `kindred-family keys rotate-data` seals them.
enum NoticeText {
    /// The sealed text of notices, each bound to its kind (`Kindred_Family_V1_NotificationKind`'s number).
    static func sealed(with cipher: FieldCipher) -> SealedText<Int> {
        SealedText(cipher: cipher) { context(kind: $0) }
    }

    /// The sealed text of stored notices, as `keys rotate-data` walks them.
    static func sealed(with cipher: FieldCipher) -> SealedText<NoticeRow> {
        SealedText(cipher: cipher) { context(kind: $0.kind) }
    }

    private static func context(kind: Int) -> String { "family.notices.text/\(kind)" }

    /// Title and body as one text: the title's length in UTF-8 bytes, a colon, the title, the body.
    static func joined(title: String, body: String) -> String {
        "\(title.utf8.count):\(title)\(body)"
    }

    /// The title and body `joined` made; the whole text as the body when it is not one.
    static func split(_ text: String) -> (title: String, body: String) {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            let count = Int(String(decoding: bytes[..<colon], as: UTF8.self)),
            count <= bytes.count - colon - 1
        else { return ("", text) }
        let title = bytes[(colon + 1)...].prefix(count)
        return (
            String(decoding: title, as: UTF8.self),
            String(decoding: bytes[(colon + 1 + count)...], as: UTF8.self)
        )
    }

    /// How a row stores a notice's text: a plaintext title and body from before sealing, or the sealed text.
    static func stored(title: String?, body: String?, sealed: [UInt8]?) -> StoredText {
        StoredText(
            plain: sealed == nil ? joined(title: title ?? "", body: body ?? "") : nil, sealed: sealed)
    }
}

extension NoticeText {
    /// The two tables of notices' texts as `keys rotate-data` re-seals them.
    static func rotations(cipher: FieldCipher, on database: PostgresPool) -> [any SealedColumn] {
        [(NoticeTextStore.Table.notifications, "notification texts"), (.pushOutbox, "push message texts")].map
        {
            table, name in
            SealedTextRotation(
                name: name, database: database, text: sealed(with: cipher),
                rows: { try await NoticeTextStore.texts(in: table, after: $0, limit: $1, on: $2) },
                reseal: { try await NoticeTextStore.reseal($0, in: table, was: $1, as: $2, in: $3) })
        }
    }
}

extension Notice {
    /// The title and body sealed for this notice's kind.
    func sealedText(with cipher: FieldCipher) -> [UInt8] {
        NoticeText.sealed(with: cipher).seal(
            NoticeText.joined(title: title, body: body), of: Int(kind.rawValue))
    }
}

/// A stored notice's row, as `keys rotate-data` walks `family.notifications` (a uuid) and `family.push_outbox`
/// (a bigint): its id as text, and its kind, which its text is bound to.
struct NoticeRow: Sendable {
    let id: String
    let kind: Int
}
