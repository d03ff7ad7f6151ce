import FoundationEssentials
import KindredAuth
import KindredHandlers

/// A day's counts as `gamification.usage_coverage` keeps them: every track's app, device and segments sealed
/// together under gamification's data keys and bound to the user and the day, so a dump shows neither an app,
/// nor a device, nor a time, and a value moved to another row does not open. Numbers are unsigned LEB128
/// varints and a segment is its gap after the one before (or midnight), its length and its count. Gaps and
/// lengths are written in the largest unit that divides them all (a second, a millisecond or a microsecond,
/// named after a 0 byte no app id starts with; a value without it, sealed before, is in microseconds): sessions
/// timed to the second take about 3 bytes a segment instead of 9, so a busy day's value (2,000 separate
/// stretches) stays inside its heap row (migration 20 keeps it out of TOAST) and an upload rewrites one tuple.
extension UsageSessions {
    /// `counts` of `user`, sealed.
    func seal(_ counts: UsageDayCounts, of user: UserID) -> [UInt8] {
        let start = Self.microseconds(counts.day)
        let tracks = counts.tracks.sorted {
            ($0.key.appID, $0.key.deviceID) < ($1.key.appID, $1.key.deviceID)
        }
        // A busy day has thousands of numbers: written into a buffer as large as the longest encoding can be,
        // without a capacity check or a reallocation each.
        let bound = tracks.reduce(2 * Varints.longest) { bound, track in
            bound + 3 * Varints.longest + track.key.appID.utf8.count + track.key.deviceID.utf8.count
                + 3 * Varints.longest * track.value.count
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var out = Varints(buffer)
            out.put(0)
            // The unit is a constant in each branch, so dividing by it is a multiplication.
            switch Self.unit(of: counts, from: start) {
            case Self.units[0]: Self.write(tracks, from: start, in: 1_000_000, to: &out)
            case Self.units[1]: Self.write(tracks, from: start, in: 1_000, to: &out)
            default: Self.write(tracks, from: start, in: 1, to: &out)
            }
            count = out.count
        }
        return cipher.seal(bytes, context: Self.context(counts.day, of: user))
    }

    /// The counts `sealed` holds for `user` on `day`.
    func open(_ sealed: [UInt8], day: Date, of user: UserID) throws -> UsageDayCounts {
        var reader = Reader(bytes: try cipher.open(sealed, context: Self.context(day, of: user)))
        var unit: Int64 = 1
        if reader.next == 0 {
            reader.offset += 1
            unit = Int64(try reader.number())
            guard Self.units.contains(unit) else { throw FieldCipherError.malformed }
        }
        var tracks: [UsageTrack: [UsageDayCounts.Segment]] = [:]
        while !reader.isAtEnd {
            let app = try reader.text()
            let track = UsageTrack(deviceID: try reader.text(), appID: app)
            var previous = Self.microseconds(day)
            tracks[track] = try (0..<reader.number()).map { _ in
                let start = previous + Int64(try reader.number()) * unit
                previous = start + Int64(try reader.number()) * unit
                return UsageDayCounts.Segment(start: start, end: previous, count: Int64(try reader.number()))
            }
        }
        return UsageDayCounts(day: day, tracks: tracks)
    }

    /// Microseconds a written number may count: a second, a millisecond, a microsecond.
    private static let units: [Int64] = [1_000_000, 1_000, 1]

    /// The largest of `units` that divides every gap and length `counts` writes: the one that divides every
    /// segment's start and end counted from `start`, as each gap and length is a difference of two of those and
    /// each of those a sum of gaps and lengths.
    private static func unit(of counts: UsageDayCounts, from start: Int64) -> Int64 {
        var unit = units[0]
        for segments in counts.tracks.values {
            for segment in segments {
                let (from, to) = (segment.start - start, segment.end - start)
                if unit == units[0], !from.isMultiple(of: 1_000_000) || !to.isMultiple(of: 1_000_000) {
                    unit = units[1]
                }
                if unit == units[1], !from.isMultiple(of: 1_000) || !to.isMultiple(of: 1_000) {
                    return units[2]
                }
            }
        }
        return unit
    }

    /// The unit, then each track's app, device and segments, in `unit`.
    @inline(__always)
    private static func write(
        _ tracks: [(key: UsageTrack, value: [UsageDayCounts.Segment])], from start: Int64, in unit: Int64,
        to out: inout Varints
    ) {
        out.put(UInt64(unit))
        for (track, segments) in tracks {
            out.put(track.appID)
            out.put(track.deviceID)
            out.put(UInt64(segments.count))
            var previous = start
            for segment in segments {
                out.put(UInt64((segment.start - previous) / unit))
                out.put(UInt64((segment.end - segment.start) / unit))
                out.put(UInt64(segment.count))
                previous = segment.end
            }
        }
    }

    /// Unsigned LEB128 varints and length-prefixed text, written into a buffer `seal` sized for them.
    private struct Varints {
        /// The most bytes a number takes.
        static let longest = 10

        let buffer: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

        mutating func put(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                buffer[count] = UInt8(truncatingIfNeeded: rest) | 0x80
                count += 1
                rest >>= 7
            }
            buffer[count] = UInt8(rest)
            count += 1
        }

        mutating func put(_ text: String) {
            put(UInt64(text.utf8.count))
            for byte in text.utf8 {
                buffer[count] = byte
                count += 1
            }
        }
    }

    private static func context(_ day: Date, of user: UserID) -> String {
        "gamification.usage_coverage/\(user)/\(microseconds(day))"
    }

    /// Varints and length-prefixed text, in the order `seal` wrote them.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }
        /// The next byte, nil at the end.
        var next: UInt8? { isAtEnd ? nil : bytes[offset] }

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
