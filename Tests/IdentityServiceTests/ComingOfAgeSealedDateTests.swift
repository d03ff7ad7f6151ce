@testable import IdentityService
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredTestSupport
import Testing

/// The coming-of-age sweep over sealed dates of birth: it opens the minors' dates, whatever form they are stored
/// in, and never an adult's.
@Suite("Coming of age with sealed dates")
struct ComingOfAgeSealedDateTests {
    static let unreadable = "coming-of-age sweep: date of birth unreadable"

    /// `test`'s account rules logging into `log`.
    static func accounts(_ test: TestAccounts, loggingTo log: CapturedLog) -> Accounts {
        let rules = test.accounts
        return Accounts(
            database: rules.database, passwords: rules.passwords, lockout: rules.lockout, clock: rules.clock,
            mail: rules.mail, birthDates: rules.birthDates, logger: log.logger())
    }

    @Test func minorsWhoseDatesPredateSealingOrAnOldKeyStillMoveBandOnTheirBirthday() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-14T12:00:00Z"))
            let plain = try await test.register("plain", born: (2008, 6, 15))
            let oldKey = try await test.register("old_key", born: (2010, 6, 15))
            try await pool.query(
                """
                UPDATE identity.accounts SET date_of_birth = '2008-06-15', date_of_birth_sealed = NULL
                WHERE id = \(plain.id)
                """)
            let sealed = TestDataKeys.old.seal(
                Array("2010-06-15".utf8), context: "identity.accounts.date_of_birth/\(oldKey.id)")
            try await pool.query(
                "UPDATE identity.accounts SET date_of_birth_sealed = \(sealed)::bytea WHERE id = \(oldKey.id)"
            )

            test.clock.set("2026-06-15T00:00:01Z")
            #expect(
                try await test.accounts.sweepComingOfAge()
                    == ComingOfAgeSweepTests.swept(6, 15, changed: 2, cameOfAge: 1))
            #expect(try await ComingOfAgeSweepTests.band(test, plain) == (.adult, false))
            #expect(try await ComingOfAgeSweepTests.band(test, oldKey) == (.sixteenToSeventeen, true))
        }
    }

    @Test func aDateThatDoesNotOpenHoldsBackOnlyItsMinorAndNoAdultsDateIsRead() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-14T12:00:00Z"))
            let adult = try await test.register("adult", born: (1980, 1, 1))
            let damaged = try await test.register("damaged", born: (2008, 6, 15))
            let turning18 = try await test.register("turning18", born: (2008, 6, 15))
            try await pool.query(
                """
                UPDATE identity.accounts SET date_of_birth_sealed = '\\x01'::bytea
                WHERE id IN (\(adult.id), \(damaged.id))
                """)
            let log = CapturedLog()

            test.clock.set("2026-06-15T00:00:01Z")
            #expect(
                try await Self.accounts(test, loggingTo: log).sweepComingOfAge()
                    == ComingOfAgeSweepTests.swept(6, 15, changed: 1, cameOfAge: 1))
            #expect(log.lines(Self.unreadable).map { $0.fields["user_id"] } == [damaged.id.description])
            #expect(try await ComingOfAgeSweepTests.band(test, damaged) == (.sixteenToSeventeen, true))
            #expect(try await ComingOfAgeSweepTests.band(test, turning18) == (.adult, false))
        }
    }
}
