public import Foundation
import Synchronization

/// A clock a test sets by hand: a birthday, a leap day, the last second of a token.
public final class TestClock: Sendable {
    private let instant: Mutex<Date>

    public init(_ text: String = "2026-06-15T12:00:00Z") {
        instant = Mutex(TestClock.parse(text))
    }

    /// A clock standing at `date` (`Date()`: the real time, for tests whose tokens must be valid now).
    public init(at date: Date) {
        instant = Mutex(date)
    }

    public var now: Date { instant.withLock { $0 } }

    public func set(_ text: String) {
        instant.withLock { $0 = TestClock.parse(text) }
    }

    public func advance(seconds: Double) {
        instant.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public static func parse(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }
}
