public import FoundationEssentials

/// RFC 9562 version 7 UUIDs: 48 bits of Unix milliseconds, then random bits, so ids sort by creation time and
/// keep a B-tree's inserts at its right edge.
public enum UUIDv7 {
    /// A new id for `instant`, in the canonical lowercase text form.
    public static func generate(at instant: Date) -> String {
        generateUUID(at: instant).uuidString.lowercased()
    }

    /// A new id for `instant`.
    public static func generateUUID(at instant: Date) -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // The millisecond of the instant's whole microsecond, as `WallClock` reads it and PostgreSQL keeps it: a
        // reading on a millisecond's edge is a Double a hair below it, and flooring that gave the millisecond
        // before, so ids of instants 1 ms apart could share one and sort in either order.
        let microseconds = Int64(max(0, (instant.timeIntervalSince1970 * 1_000_000).rounded()))
        let milliseconds = UInt64(microseconds / 1_000)
        for index in 0..<6 {
            bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
