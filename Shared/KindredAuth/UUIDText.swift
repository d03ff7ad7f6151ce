package import FoundationEssentials

/// A UUID's 8-4-4-4-12 hex text, read and written by hand: Foundation does both through `sscanf` and
/// `snprintf` on Linux, which took a third of the CPU of a leaderboard reading 500 friends' ids (perf). Here, so
/// a token's subject is read once as every id is (KindredHandlers' `ID` builds on it).
package enum UUIDText {
    private static let dashes: Set<Int> = [8, 13, 18, 23]
    private static let digits = Array("0123456789abcdef".utf8)

    /// The UUID `text` spells, in any case; nil for anything but exactly 36 characters of that form.
    package static func parse(_ text: String) -> UUID? {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return nil }
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        let complete = withUnsafeMutableBytes(of: &bytes) { out in
            var written = 0
            var high: UInt8?
            for (position, character) in utf8.enumerated() {
                if dashes.contains(position) {
                    guard character == UInt8(ascii: "-") else { return false }
                    continue
                }
                guard let nibble = value(of: character) else { return false }
                if let first = high {
                    out[written] = first << 4 | nibble
                    written += 1
                    high = nil
                } else {
                    high = nibble
                }
            }
            return written == 16
        }
        return complete ? UUID(uuid: bytes) : nil
    }

    /// `uuid` as lowercase 8-4-4-4-12 text.
    package static func format(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits[Int(byte >> 4)]
                    text[position + 1] = digits[Int(byte & 0x0f)]
                    position += 2
                }
                return position
            }
        }
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
