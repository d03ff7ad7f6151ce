import FoundationEssentials

/// Where the identity rules read the time: ages, token expiry and the daily sweep all ask it, so tests can
/// stand on any day (a birthday, 29 February, a token's last second).
struct IdentityClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that answers `read()`.
    init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The system's wall clock.
    static let system = IdentityClock { Date() }

    /// The current instant.
    var now: Date { read() }

    /// Today's UTC date.
    var today: CalendarDate { CalendarDate(utcDayOf: now) }
}
