@testable import FamilyService
import Foundation
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// What identity's events do to family's data, applied as the consumer applies them: each in a transaction,
/// and each safe to apply twice.
@Suite struct IdentityEventHandlerTests {
    let clock = TestClock()
    var handler: IdentityEventHandler {
        IdentityEventHandler(
            clock: WallClock { [clock] in clock.now }, mail: FamilyTestStack.mail,
            logger: FamilyTestDatabase.logger)
    }

    func apply(
        _ payload: Kindred_Identity_V1_Event.OneOf_Payload, account: Kindred_Identity_V1_Account? = nil,
        times: Int = 1, on pool: PostgresPool
    ) async throws {
        let event = ReceivedIdentityEvent(event: .init(cursor: 1, payload: payload), account: account)
        for _ in 0..<times {
            try await pool.transaction { tx in try await handler.apply(event, in: tx) }
        }
    }

    func controls(_ user: String, _ pool: PostgresPool) async throws -> [Bool]? {
        try await pool.query(
            """
            SELECT active, messaging_followed_only, public_events_restricted, event_join_approval_required,
                content_filtering
            FROM family.parental_controls WHERE minor_id = \(user)::uuid
            """
        ).first.map { row in try (0..<5).map { try row.decode(Bool.self, column: $0) } }
    }

    @Test(arguments: [Kindred_Identity_V1_AgeBand.ageBand1315, .ageBand1617])
    func aRegisteredMinorGetsEveryRestrictionOnAndAProfileSayingSo(_ band: Kindred_Identity_V1_AgeBand)
        async throws
    {
        try await FamilyTestDatabase.withDatabase { pool in
            let mia = UUIDv7.generate(at: Date())
            try await apply(
                .userRegistered(.init(userID: mia, ageBand: band, parentalControls: true)), times: 2, on: pool
            )
            #expect(try await controls(mia, pool) == [true, true, true, true, true])
            let profile = try await GuardianRules(pool).profiles.profile(
                of: UserID(mia)!, as: FamilyCallers.adult())
            #expect(profile.parentalControlsActive)
        }
    }

    @Test func aRegisteredAdultGetsNoControls() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let dad = UUIDv7.generate(at: Date())
            try await apply(.userRegistered(.init(userID: dad, ageBand: .ageBand18Plus)), on: pool)
            #expect(try await controls(dad, pool) == nil)
            #expect(
                try await !GuardianRules(pool).profiles.profile(of: UserID(dad)!, as: FamilyCallers.adult())
                    .parentalControlsActive)
        }
    }

    @Test func comingOfAgeSwitchesControlsOffAndTellsTheUserOnceInTheAppAndByEmail() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let mia = FamilyCallers.minor(.sixteenToSeventeen)
            try await apply(
                .userRegistered(.init(userID: mia.id.description, ageBand: .ageBand1617)), on: pool)
            let account = Kindred_Identity_V1_Account(
                userID: mia.id.description, username: "mia_r", email: "mia@example.com")
            try await apply(
                .userCameOfAge(.init(userID: mia.id.description)), account: account, times: 2, on: pool)

            #expect(try await controls(mia.id.description, pool)?.first == false)
            #expect(
                try await !GuardianRules(pool).profiles.profile(of: mia.id, as: mia)
                    .parentalControlsActive)
            let notices = try await pool.query(
                "SELECT kind FROM family.notifications WHERE recipient_id = \(mia.id)::uuid"
            ).map { try $0.decode(Int32.self, column: 0) }
            #expect(notices == [Kindred_Family_V1_NotificationKind.cameOfAge.rawValue])
            let mail = try await TestMailbox(pool, schema: "family").mail(to: "mia@example.com")
            #expect(mail.map(\.kind) == ["came_of_age"] && mail[0].body.contains("Hello mia_r"))
        }
    }

    @Test func comingOfAgeEndsPendingInvitationsButKeepsLinks() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool, clock: clock)
            let (mia, dad) = (FamilyCallers.minor(.sixteenToSeventeen), FamilyCallers.adult())
            try await rules.link(dad, to: mia)
            let (_, token) = try await rules.invite("mum@example.com", from: mia)
            try await apply(.userCameOfAge(.init(userID: mia.id.description)), on: pool)
            let error = await rpcError {
                try await rules.guardians.accept(token: token, as: FamilyCallers.adult())
            }
            #expect(error?.reason == "LINK_EXPIRED")
            #expect(try await rules.guardians.isGuardian(dad.accountUserID!, of: mia.accountUserID!))
            #expect(
                try await TestMailbox(pool, schema: "family").all().allSatisfy {
                    $0.kind == "guardian_invitation"
                })
        }
    }

    @Test func aDeletedUserLeavesNoFamilyDataEitherWay() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool, clock: clock)
            let (mia, dad, leo) = (FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.minor())
            _ = try await rules.profiles.update(mask: ["bio"], to: .init(bio: "hi"), as: dad)
            _ = try await rules.profiles.update(mask: ["bio"], to: .init(bio: "hi"), as: mia)
            try await apply(
                .userRegistered(.init(userID: mia.id.description, ageBand: .ageBand1315)), on: pool)
            try await rules.link(dad, to: mia)
            try await rules.link(dad, to: leo)
            _ = try await rules.invite("gran@example.com", from: mia)

            try await apply(.userDeleted(.init(userID: dad.id.description)), on: pool)
            #expect(try await rules.guardians.guardians(of: leo.accountUserID!).isEmpty)
            #expect(try await rules.count("profiles", "user_id", dad.id) == 0)
            #expect(try await rules.count("guardian_invitations", "accepted_by", dad.id) == 0)

            try await apply(.userDeleted(.init(userID: mia.id.description)), times: 2, on: pool)
            for (table, column) in [
                ("profiles", "user_id"), ("parental_controls", "minor_id"), ("guardian_links", "minor_id"),
                ("guardian_invitations", "minor_id"),
            ] {
                #expect(try await rules.count(table, column, mia.id) == 0, "\(table)")
            }
            #expect(try await rules.count("parental_controls", "minor_id", leo.id) == 1)
        }
    }

    @Test func anEventNamingNoUserIsSkippedRatherThanRetriedForever() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            try await apply(.userRegistered(.init(userID: "not-a-user", ageBand: .ageBand1315)), on: pool)
            try await apply(.userDeleted(.init(userID: "")), on: pool)
            #expect(
                try await pool.query("SELECT count(*) FROM family.parental_controls")[0].decode(
                    Int64.self, column: 0) == 0)
        }
    }
}
