import KindredHandlers
import KindredRPC

/// The refusals of usage, leaderboards and popular apps that are theirs alone (`GamificationError` holds
/// every part's).
enum UsageError {
    /// A time zone name PostgreSQL's zone database does not know.
    static let unknownTimeZone = FieldViolations.single(
        "settings.time_zone", "is not a known time zone name, such as Europe/Rome")
}
