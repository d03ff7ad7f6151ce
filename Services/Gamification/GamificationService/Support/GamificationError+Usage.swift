import KindredHandlers
import KindredRPC

/// The refusals of usage, leaderboards and popular apps that are theirs alone (`GamificationError` holds
/// every part's).
enum UsageError {
    /// A time zone name PostgreSQL's zone database does not know.
    static let unknownTimeZone = FieldViolations.single(
        "settings.time_zone", "is not a known time zone name, such as Europe/Rome")

    /// A batch that would take a day past `UsageDayCounts.maximumStretches` separate stretches of use.
    static let dayFull = GamificationError.refusal(
        .resourceExhausted, "USAGE_DAY_FULL",
        "This day already holds as much separate app use as can be recorded.")
}
