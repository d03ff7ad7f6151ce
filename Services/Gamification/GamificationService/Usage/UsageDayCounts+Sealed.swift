import FoundationEssentials
import KindredAuth
import KindredHandlers

/// A day's counts as `gamification.usage_coverage` keeps them: every track's app, device and segments sealed
/// together under gamification's data keys and bound to the user and the day, so a dump shows neither an app,
/// nor a device, nor a time, and a value moved to another row does not open.
extension UsageSessions {
    /// `counts` of `user`, sealed.
    func seal(_ counts: UsageDayCounts, of user: UserID) -> [UInt8] {
        var bytes: [UInt8] = []
        let put = { (value: UInt64, width: Int, bytes: inout [UInt8]) in
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        for (track, segments) in counts.tracks.sorted(by: {
            ($0.key.appID, $0.key.deviceID) < ($1.key.appID, $1.key.deviceID)
        }) {
            for name in [track.appID, track.deviceID] {
                put(UInt64(name.utf8.count), 2, &bytes)
                bytes.append(contentsOf: name.utf8)
            }
            put(UInt64(segments.count), 4, &bytes)
            for segment in segments {
                put(UInt64(bitPattern: segment.start), 8, &bytes)
                put(UInt64(bitPattern: segment.end), 8, &bytes)
                put(UInt64(segment.count), 4, &bytes)
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
            tracks[track] = try (0..<reader.integer(4)).map { _ in
                UsageDayCounts.Segment(
                    start: Int64(bitPattern: try reader.integer(8)),
                    end: Int64(bitPattern: try reader.integer(8)),
                    count: Int64(try reader.integer(4)))
            }
        }
        return UsageDayCounts(day: day, tracks: tracks)
    }

    private static func context(_ day: Date, of user: UserID) -> String {
        "gamification.usage_coverage/\(user)/\(microseconds(day))"
    }

    /// Big-endian integers and length-prefixed text, in the order `seal` wrote them.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func integer(_ width: Int) throws -> UInt64 {
            guard bytes.count - offset >= width else { throw FieldCipherError.malformed }
            defer { offset += width }
            return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func text() throws -> String {
            let length = Int(try integer(2))
            guard bytes.count - offset >= length else { throw FieldCipherError.malformed }
            defer { offset += length }
            return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
        }
    }
}
