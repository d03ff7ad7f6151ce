@testable import IdentityService
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredTestSupport
import Testing

@Suite("Coming-of-age sweep")
struct ComingOfAgeSweepTests {
    typealias Range = (band: TokenClaims.AgeBand, controls: Bool)

    static func band(_ test: TestAccounts, _ account: AccountRecord) async throws -> Range {
        let range = try await test.accounts.ageRange(of: account.id, as: TestCallers.service)
        return (range.band, range.parentalControls)
    }

    /// A sweep of 2026-`month`-`day` that changed `changed` accounts, `cameOfAge` of them to 18+.
    static func swept(_ month: Int, _ day: Int, changed: Int, cameOfAge: Int) -> Accounts.SweepOutcome {
        .swept(day: CalendarDate(year: 2026, month: month, day: day)!, changed: changed, cameOfAge: cameOfAge)
    }

    @Test func minorsMoveBandOnTheirBirthdayAndThoseTurningEighteenComeOfAge() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-14T12:00:00Z"))
            let turning16 = try await test.register("turning16", born: (2010, 6, 15))
            let turning18 = try await test.register("turning18", born: (2008, 6, 15))
            let staying = try await test.register("staying", born: (2008, 6, 16))
            #expect(try await test.accounts.sweepComingOfAge() == Self.swept(6, 14, changed: 0, cameOfAge: 0))

            test.clock.set("2026-06-15T00:00:01Z")
            #expect(try await test.accounts.sweepComingOfAge() == Self.swept(6, 15, changed: 2, cameOfAge: 1))
            #expect(try await Self.band(test, turning16) == (.sixteenToSeventeen, true))
            #expect(try await Self.band(test, turning18) == (.adult, false))
            #expect(try await Self.band(test, staying) == (.sixteenToSeventeen, true))
            let events = try await TestEvents.all(pool).filter { $0.type == "user.came_of_age" }
            let cameOfAge = Kindred_Identity_V1_UserCameOfAge(userID: turning18.id.description)
            #expect(events.map(\.payload) == [.userCameOfAge(cameOfAge)])
        }
    }

    @Test func aLeapDayBirthdayComesOfAgeOnTheFirstOfMarch() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-02-27T12:00:00Z"))
            let leap = try await test.register("leap", born: (2008, 2, 29))
            test.clock.set("2026-02-28T12:00:00Z")
            _ = try await test.accounts.sweepComingOfAge()
            #expect(try await Self.band(test, leap) == (.sixteenToSeventeen, true))
            test.clock.set("2026-03-01T00:30:00Z")
            #expect(try await test.accounts.sweepComingOfAge() == Self.swept(3, 1, changed: 1, cameOfAge: 1))
            #expect(try await Self.band(test, leap) == (.adult, false))
        }
    }

    @Test func aDayIsSweptOnceHoweverOftenAndWhereverTheSweepRuns() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-14T12:00:00Z"))
            for index in 0..<5 { try await test.register("teen\(index)", born: (2008, 6, 15)) }
            test.clock.set("2026-06-15T03:00:00Z")
            let instances = (0..<4).map { _ in TestAccounts(pool, clock: test.clock) }
            let outcomes = try await withThrowingTaskGroup(of: Accounts.SweepOutcome.self) { group in
                for instance in instances { group.addTask { try await instance.accounts.sweepComingOfAge() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let today = CalendarDate(year: 2026, month: 6, day: 15)!
            #expect(outcomes.filter { $0 == .swept(day: today, changed: 5, cameOfAge: 5) }.count == 1)
            #expect(outcomes.filter { $0 == .alreadySwept(day: today) }.count == 3)
            #expect(try await test.accounts.sweepComingOfAge() == .alreadySwept(day: today))
            #expect(try await TestEvents.types(pool).filter { $0 == "user.came_of_age" }.count == 5)
        }
    }

    @Test func aMissedDayIsCaughtUpByTheNextSweep() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-10T12:00:00Z"))
            let skipped = try await test.register("skipped", born: (2010, 6, 12))
            test.clock.set("2026-06-15T12:00:00Z")
            _ = try await test.accounts.sweepComingOfAge()
            #expect(try await Self.band(test, skipped) == (.sixteenToSeventeen, true))
            test.clock.set("2026-06-16T12:00:00Z")
            #expect(try await test.accounts.sweepComingOfAge() == Self.swept(6, 16, changed: 0, cameOfAge: 0))
        }
    }

    @Test func controlsAlreadyTurnedOffStayOffWhenAMinorMovesToSixteen() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-14T12:00:00Z"))
            let teen = try await test.register("teen", born: (2010, 6, 15))
            try await pool.query(
                "UPDATE identity.accounts SET parental_controls = false WHERE id = \(teen.id)")
            test.clock.set("2026-06-15T12:00:00Z")
            _ = try await test.accounts.sweepComingOfAge()
            #expect(try await Self.band(test, teen) == (.sixteenToSeventeen, false))
        }
    }
}
