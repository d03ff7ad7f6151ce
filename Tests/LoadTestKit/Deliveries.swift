import Synchronization

/// Real-time propagation on one kind of stream: each write the run makes (a message, a comment, a calendar
/// event, a registry item) carries a key in its text; its delay runs from the moment the write was sent to its
/// arrival on each subscriber's stream. The subscribers due a write are those whose stream was settled (open
/// for `settle`: a stream opened without a cursor carries only what arrives after the server started it) when
/// the write was sent and when its answer came back; a subscriber not due it (the writer's own stream, one
/// still settling) is not counted. What has not arrived `grace` after the last write is missed.
public final class Deliveries: Sendable {
    struct Pending {
        let sentAt: ContinuousClock.Instant
        /// Nil until the write's answer is back.
        var due: Set<Int>?
        var arrivals: [Int: ContinuousClock.Instant] = [:]

        /// `recipient` has not received it yet and, once the answer is back, is due it.
        func awaits(_ recipient: Int) -> Bool {
            arrivals[recipient] == nil && (due?.contains(recipient) ?? true)
        }

        /// The answer is back and every recipient due it has received it.
        var isComplete: Bool { due.map { arrivals.count == $0.count } ?? false }
    }

    public static let settle: Duration = .seconds(2)
    /// How long streams stay open after the last write, for the deliveries still on their way.
    public static let grace: Duration = .seconds(5)
    static let prefix = "loadtest "
    private let state = Mutex<(pending: [String: Pending], tally: DeliveryTally)>(([:], DeliveryTally()))

    /// The text of a measured write with `key`.
    public static func text(for key: String) -> String { prefix + key }

    /// The key a text carries, wherever it is in it (a notice quotes the comment after the author's name), up
    /// to the first whitespace. Read from the text's UTF-8 bytes: every message of every stream goes through
    /// here, and Foundation's `range(of:)` with a walk over Characters was 4% of the tool's CPU (issue 27).
    public static func key(in text: String) -> String? {
        switch text.utf8.withContiguousStorageIfAvailable(scanKey) {
        case .key(let key)?: key
        case .unicode?, nil: characterKey(in: text)
        }
    }

    private enum Scan {
        case key(String?)
        /// A non-ASCII character follows the prefix: whitespace is then Unicode's, read by Character.
        case unicode
    }

    private static let prefixUTF8 = Array(prefix.utf8)

    private static func scanKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        let marker = prefixUTF8
        guard bytes.count >= marker.count else { return .key(nil) }
        for start in 0...(bytes.count - marker.count)
        where bytes[start] == marker[0] && bytes[start..<start + marker.count].elementsEqual(marker) {
            let keyStart = start + marker.count
            var end = keyStart
            while end < bytes.count, bytes[end] < 0x80, !isASCIIWhitespace(bytes[end]) { end += 1 }
            if end < bytes.count, bytes[end] >= 0x80 { return .unicode }
            guard end > keyStart else { return .key(nil) }
            return .key(String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart..<end]), as: UTF8.self))
        }
        return .key(nil)
    }

    /// Character.isWhitespace of an ASCII byte: tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func characterKey(in text: String) -> String? {
        guard let start = text.firstRange(of: prefix)?.upperBound else { return nil }
        let key = text[start...].prefix { !$0.isWhitespace }
        return key.isEmpty ? nil : String(key)
    }

    public init() {}

    public func sending(_ key: String, at sentAt: ContinuousClock.Instant = .now) {
        state.withLock { $0.pending[key] = Pending(sentAt: sentAt) }
    }

    /// The write of `key` came back: when it succeeded, each of `recipients` must receive it.
    public func sent(_ key: String, succeeded: Bool, recipients: Set<Int>) {
        state.withLock { state in
            guard succeeded, !recipients.isEmpty, var pending = state.pending[key] else {
                return state.pending[key] = nil
            }
            pending.due = recipients
            pending.arrivals = pending.arrivals.filter { recipients.contains($0.key) }
            state.pending[key] = pending
            Self.closeIfComplete(key, in: &state)
        }
    }

    /// `recipient`'s stream received `text`; texts of writes this run is not waiting for are ignored.
    public func arrived(text: String, recipient: Int, at now: ContinuousClock.Instant = .now) {
        guard let key = Self.key(in: text) else { return }
        // In place, through the entry's index: a copy of the entry out and back copied its arrivals and hashed
        // the key three more times, for every message of every stream.
        state.withLock { state in
            guard let entry = state.pending.index(forKey: key), state.pending.values[entry].awaits(recipient)
            else { return }
            state.pending.values[entry].arrivals[recipient] = now
            guard state.pending.values[entry].isComplete else { return }
            Self.record(state.pending.values[entry], in: &state.tally)
            state.pending.remove(at: entry)
        }
    }

    /// `recipient`'s stream ended before it got anything, so it has no cursor to resume from and reopens "from
    /// now on": what was due to it and has not arrived is no longer promised to it (an app resumes from the
    /// cursor of its last list call; the run's streams have none).
    public func reopensWithoutCursor(recipient: Int) {
        state.withLock { state in
            for (key, pending) in state.pending where pending.due?.contains(recipient) ?? false {
                guard pending.arrivals[recipient] == nil else { continue }
                state.pending[key]?.due?.remove(recipient)
                Self.closeIfComplete(key, in: &state)
            }
        }
    }

    /// Stops expecting: every due arrival not there is missed.
    public func finish() -> DeliveryTally {
        state.withLock { state in
            var tally = state.tally
            for pending in state.pending.values {
                guard let due = pending.due else { continue }
                Self.record(pending, in: &tally)
                tally.missed += due.count - pending.arrivals.count
            }
            return tally
        }
    }

    private static func closeIfComplete(
        _ key: String, in state: inout (pending: [String: Pending], tally: DeliveryTally)
    ) {
        guard let pending = state.pending[key], pending.isComplete else { return }
        record(pending, in: &state.tally)
        state.pending[key] = nil
    }

    private static func record(_ pending: Pending, in tally: inout DeliveryTally) {
        for arrival in pending.arrivals.values { tally.delays.record(arrival - pending.sentAt) }
    }
}
