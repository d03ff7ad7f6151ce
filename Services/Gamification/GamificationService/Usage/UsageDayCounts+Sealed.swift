import FoundationEssentials
import KindredAuth
import KindredHandlers

/// A day's counts as `gamification.usage_coverage` keeps them: every track's app, device and segments sealed
/// together under gamification's data keys and bound to the user and the day, so a dump shows neither an app,
/// nor a device, nor a time, and a value moved to another row does not open. Numbers are unsigned LEB128
/// varints and a segment is its gap after the one before (or midnight), its length and its count: about 9 bytes
/// a segment, so a busy day's value stays inside its heap row (migration 20 keeps it out of TOAST).
extension UsageSessions {
    /// `counts` of `user`, sealed.
    func seal(_ counts: UsageDayCounts, of user: UserID) -> [UInt8] {
        var bytes: [UInt8] = []
        let put = { (value: UInt64, bytes: inout [UInt8]) in
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
        let start = Self.microseconds(counts.day)
        let tracks = counts.tracks.sorted {
            ($0.key.appID, $0.key.deviceID) < ($1.key.appID, $1.key.deviceID)
        }
        for (track, segments) in tracks {
            for name in [track.appID, track.deviceID] {
                put(UInt64(name.utf8.count), &bytes)
                bytes.append(contentsOf: name.utf8)
            }
            put(UInt64(segments.count), &bytes)
            var previous = start
            for segment in segments {
                put(UInt64(segment.start - previous), &bytes)
                put(UInt64(segment.end - segment.start), &bytes)
                put(UInt64(segment.count), &bytes)
                previous = segment.end
            }
        }
        return cipher.seal(bytes, context: Self.context(counts.day, of: user))
    }

    /// The counts `sealed` holds for `user` on `day`.
    func open(_ sealed: [UInt8], day: Date, of user: UserID) throws -> UsageDayCounts {
        var reader = Reader(bytes: try cipher.open(sealed, context: Self.context(day, of: user)))
        var tracks: [UsageTrack: [UsageDayCounts.Segment]] = [:]
        while !reader.isAtEnd {
            let app = try reader.text()
            let track = UsageTrack(deviceID: try reader.text(), appID: app)
            var previous = Self.microseconds(day)
            tracks[track] = try (0..<reader.number()).map { _ in
                let start = previous + Int64(try reader.number())
                previous = start + Int64(try reader.number())
                return UsageDayCounts.Segment(start: start, end: previous, count: Int64(try reader.number()))
            }
        }
        return UsageDayCounts(day: day, tracks: tracks)
    }

    private static func context(_ day: Date, of user: UserID) -> String {
        "gamification.usage_coverage/\(user)/\(microseconds(day))"
    }

    /// Varints and length-prefixed text, in the order `seal` wrote them.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func number() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 63, by: 7) {
                guard offset < bytes.count else { throw FieldCipherError.malformed }
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return value }
            }
            throw FieldCipherError.malformed
        }

        mutating func text() throws -> String {
            let length = try number()
            guard length <= bytes.count - offset else { throw FieldCipherError.malformed }
            defer { offset += Int(length) }
            return String(decoding: bytes[offset..<(offset + Int(length))], as: UTF8.self)
        }
    }
}
