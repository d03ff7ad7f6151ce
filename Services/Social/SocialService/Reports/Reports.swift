import KindredAuth
import KindredHandlers
import KindredPostgres

/// Reports: anyone may report a user, a message, an event or a media item once; what three or more different
/// people reported is filtered for everyone (`ReportTally`), and a report against a minor's content tells
/// their guardians at once (`content.reported`). Each rule takes the reporter explicitly, so it is tested
/// without a server; the RPC handler only translates. Rules are in `Reports+*.swift`, their SQL in
/// `ReportStore*.swift`.
struct Reports: Sendable {
    let database: PostgresPool
    /// Social's data keys, which seal the events it appends.
    let cipher: FieldCipher
    let clock: WallClock
    let people: PeopleDirectory

    init(context: SocialContext) {
        database = context.database
        cipher = context.cipher
        clock = context.clock
        people = context.people
    }
}

/// Where reported content stands after a report.
struct ReportOutcome: Sendable, Equatable {
    /// Different people who have reported it, the reporter included.
    let reporters: Int

    /// Reported by enough people to be filtered for everyone.
    var filtered: Bool { reporters >= ReportTally.filterThreshold }
}
