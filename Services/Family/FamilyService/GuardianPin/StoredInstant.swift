import FoundationEssentials

/// Instants compared as PostgreSQL keeps them, in whole microseconds: a deadline read back from a row and the
/// clock's reading of that same moment compare equal, so a lock or a session ends exactly when it says, on a
/// clock with any fraction of a second.
enum StoredInstant {
    /// `date` in whole microseconds since 1970, rounded as the database rounds it.
    static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Whether `deadline` is still ahead at `now`.
    static func isAhead(_ deadline: Date, of now: Date) -> Bool {
        microseconds(deadline) > microseconds(now)
    }

    /// What is left until `deadline` (ahead of `now`), in whole seconds rounded up.
    static func secondsLeft(until deadline: Date, from now: Date) -> Duration {
        let left = microseconds(deadline) - microseconds(now)
        return .seconds(max(1, (left + 999_999) / 1_000_000))
    }
}
