package import FoundationEssentials

/// A UUID's 8-4-4-4-12 hex text, read and written by hand: Foundation does both through `sscanf` and
/// `snprintf` on Linux, which took a third of the CPU of a leaderboard reading 500 friends' ids (perf). Here, so
/// a token's subject is read once as every id is (KindredHandlers' `ID` builds on it).
package enum UUIDText {
    /// The UUID `text` spells, in any case; nil for anything but exactly 36 characters of that form.
    package static func parse(_ text: String) -> UUID? {
        var text = text
        // Over the contiguous UTF-8 bytes, two hex digits at a time: a Set lookup and a UTF8View iterator per
        // character showed in every service's profile (ids arrive as text in every request).
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes = (
                UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
                UInt8(0),
                UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
            )
            let complete = withUnsafeMutableBytes(of: &bytes) { out in
                var written = 0
                var position = 0
                // Each group has an even number of digits, so a pair never straddles a dash.
                while position < 36 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                        continue
                    }
                    guard let high = value(of: utf8[position]), let low = value(of: utf8[position + 1]) else {
                        return false
                    }
                    out[written] = high << 4 | low
                    written += 1
                    position += 2
                }
                return true
            }
            return complete ? UUID(uuid: bytes) : nil
        }
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
                    text[position] = digit(byte >> 4)
                    text[position + 1] = digit(byte & 0x0f)
                    position += 2
                }
                return position
            }
        }
    }

    /// The lowercase hex digit of `nibble` (0–15), computed: a table in a global costs a lazy-initialization
    /// check (`swift_once`) on each of the 32 digits of every id written (perf).
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
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
