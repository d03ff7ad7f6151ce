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

    /// The current instant.
    public var now: Date { read() }
}
