@testable import FamilyService
import Foundation
import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The profile and guardian rules on a test database, on a clock the test moves, with identity's answer
/// about verified emails given by the test.
struct GuardianRules {
    let pool: PostgresPool
    let clock: TestClock
    let guardians: Guardians
    let profiles: Profiles

    init(_ pool: PostgresPool, clock: TestClock = TestClock(), unverified: Set<String> = []) {
        self.pool = pool
        self.clock = clock
        guardians = Guardians(
            database: pool, clock: WallClock { clock.now }, mail: FamilyTestStack.mail,
            isEmailVerified: { !unverified.contains($0.description) })
        profiles = Profiles(
            database: pool, clock: WallClock { clock.now }, names: ProfileNames(cipher: TestDataKeys.cipher))
    }

    /// `minor` invites `email` and the token of the mailed link.
    func invite(
        _ email: String, from minor: Caller, requestID: String = UUID().uuidString
    ) async throws -> (invitation: GuardianInvitationStore.Invitation, token: String) {
        let invitation = try await guardians.invite(email: email, requestID: requestID, as: minor)
        return (invitation, try await TestMailbox(pool, schema: "family").token(to: email))
    }

    /// `guardian` becomes `minor`'s guardian through an invitation.
    @discardableResult
    func link(_ guardian: Caller, to minor: Caller) async throws -> GuardianLinkStore.Link {
        let email = "\(guardian.id.description.prefix(8))-\(UUID().uuidString.prefix(8))@example.com"
        return try await guardians.accept(token: try await invite(email, from: minor).token, as: guardian)
    }

    /// The guardian rules of a second instance of the service: a pool of its own on the same database, so
    /// that its transactions really run beside this one's. Close the pool when done.
    func secondInstance() async throws -> (Guardians, PostgresPool) {
        let name = try await pool.query("SELECT current_database()")[0].decode(String.self, column: 0)
        let other = PostgresPool(
            configuration: try PostgresConfiguration(url: try SharedCluster.url(database: name), poolSize: 2),
            logger: FamilyTestDatabase.logger)
        let rules = Guardians(
            database: other, clock: guardians.clock, mail: FamilyTestStack.mail,
            isEmailVerified: { _ in true })
        return (rules, other)
    }

    /// How many rows of `table` (a family table named by the test) hold `user` in `column`.
    func count(_ table: String, _ column: String, _ user: UserID) async throws -> Int64 {
        // The table and column are the test's own constants; the user is a bind.
        var query = PostgresQuery(unsafeSQL: "SELECT count(*) FROM family.\(table) WHERE \(column) = ")
        query.append(bind: user)
        query.append(unsafeSQL: "::uuid")
        return try await pool.query(query)[0].decode(Int64.self, column: 0)
    }
}
