import KindredAuth

/// Several texts of one row as the row stores them: plaintext written before sealing began (one column each),
/// or sealed together in one column; exactly one of the two forms is set.
struct StoredTexts: Equatable, Sendable {
    let plain: [String?]
    let sealed: [UInt8]?
}

/// Several text columns of one row sealed together under family's data keys as one value (a calendar event's
/// name, description and location), bound to the row by `context` (`family.calendar_events.texts/<event id>`):
/// one seal per write, one open per read. Each text goes in preceded by its UTF-8 length (4 bytes, big-endian),
/// so any text comes back exactly as it went in.
struct SealedTexts<Row: Sendable>: Sendable {
    let cipher: FieldCipher
    /// How many texts a row holds.
    let count: Int
    let context: @Sendable (Row) -> String

    /// `texts` (`count` of them) sealed for `row`.
    func seal(_ texts: [String], of row: Row) -> [UInt8] {
        precondition(texts.count == count, "\(texts.count) texts given, \(count) expected")
        let framed = texts.flatMap { text -> [UInt8] in
            let length = UInt32(text.utf8.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(text.utf8)
        }
        return cipher.seal(framed, context: context(row))
    }

    /// The texts of `row`, from whichever form holds them (a missing plaintext text reads as empty).
    func open(_ stored: StoredTexts, of row: Row) throws -> [String] {
        guard let sealed = stored.sealed else { return stored.plain.map { $0 ?? "" } }
        var bytes = try cipher.open(sealed, context: context(row))[...]
        var texts: [String] = []
        while texts.count < count {
            guard bytes.count >= 4 else { throw FieldCipherError.malformed }
            let length = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            bytes = bytes.dropFirst(4)
            guard bytes.count >= length else { throw FieldCipherError.malformed }
            texts.append(String(decoding: bytes.prefix(length), as: UTF8.self))
            bytes = bytes.dropFirst(length)
        }
        return texts
    }

    /// `stored` sealed under the current key, or nil when it already is.
    func resealed(_ stored: StoredTexts, of row: Row) throws -> [UInt8]? {
        guard !cipher.isCurrent(stored.sealed) else { return nil }
        return seal(try open(stored, of: row), of: row)
    }
}
