public import FoundationEssentials

/// Where a service's rules read the time: ages, expiries, lockouts and sweeps all ask it, so tests can stand
/// on any instant (a birthday, a lock's last second, next week's summary).
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that answers `read()`.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The system's wall clock.
    public static let system = WallClock { Date() }

    /// The current instant, to the whole microsecond as PostgreSQL keeps it: what a change answers is then the
    /// very time a later read of its row shows (a finer reading can round one way into the column and not the
    /// other into the answer).
    public var now: Date {
        Date(timeIntervalSince1970: (read().timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
    }
}
