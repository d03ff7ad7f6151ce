import KindredAuth

/// A text value as its row stores it: plaintext written before sealing began, or sealed; exactly one is set.
struct StoredText: Equatable, Sendable {
    let plain: String?
    let sealed: [UInt8]?
}

/// A text column sealed under family's data keys (`FieldCipher`, AES-256-GCM), each value bound to its row by
/// `context` (e.g. `family.guardian_pins.pin_hash/<minor id>`), so a value copied to another row does not open.
/// The rules seal and open through it; `keys rotate-data` re-seals through it (`SealedTextRotation`).
struct SealedText<Row: Sendable>: Sendable {
    let cipher: FieldCipher
    let context: @Sendable (Row) -> String

    /// `text` sealed for `row`.
    func seal(_ text: String, of row: Row) -> [UInt8] {
        cipher.seal(Array(text.utf8), context: context(row))
    }

    /// The text of `row`, from whichever of its two columns holds it.
    func open(_ stored: StoredText, of row: Row) throws -> String {
        guard let sealed = stored.sealed else { return stored.plain ?? "" }
        return String(decoding: try cipher.open(sealed, context: context(row)), as: UTF8.self)
    }

    /// `stored` sealed under the current key, or nil when it already is.
    func resealed(_ stored: StoredText, of row: Row) throws -> [UInt8]? {
        guard !cipher.isCurrent(stored.sealed) else { return nil }
        return seal(try open(stored, of: row), of: row)
    }
}
