public import Foundation
import Synchronization

/// A clock a test sets by hand: a birthday, a leap day, the last second of a token.
public final class TestClock: Sendable {
    /// Since 1970, kept exact: a Date moved by repeated `addingTimeInterval` drifts (0.07 µs a millisecond
    /// step in 2061), and a reading a hair below a millisecond's edge lands in the millisecond before.
    private let instant: Mutex<Duration>

    public init(_ text: String = "2026-06-15T12:00:00Z") {
        instant = Mutex(Self.sinceEpoch(TestClock.parse(text)))
    }

    /// A clock standing at `date` (`Date()`: the real time, for tests whose tokens must be valid now).
    public init(at date: Date) {
        instant = Mutex(Self.sinceEpoch(date))
    }

    public var now: Date {
        let (seconds, attoseconds) = instant.withLock { $0 }.components
        return Date(timeIntervalSince1970: Double(seconds) + Double(attoseconds) / 1e18)
    }

    public func set(_ text: String) {
        instant.withLock { $0 = Self.sinceEpoch(TestClock.parse(text)) }
    }

    public func advance(seconds: Double) {
        instant.withLock { $0 += .nanoseconds(Int64((seconds * 1e9).rounded())) }
    }

    public static func parse(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    /// `date` to the nanosecond.
    private static func sinceEpoch(_ date: Date) -> Duration {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return .seconds(Int64(seconds))
            + .nanoseconds(Int64(((date.timeIntervalSince1970 - seconds) * 1e9).rounded()))
    }
}
