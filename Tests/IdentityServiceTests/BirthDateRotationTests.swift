@testable import IdentityService
import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRuntime
import KindredTestSupport
import Testing

/// `kindred-identity keys rotate-data` over dates of birth: rows written before sealing (plaintext) or under an
/// older key are read as they are, then sealed under the current key, while the service keeps serving.
@Suite("Dates of birth re-sealed")
struct BirthDateRotationTests {
    /// `keys rotate-data`'s two columns walked once, as the command does: how many each re-sealed.
    static func rotateData(_ pool: PostgresPool) async throws -> [Int] {
        let columns: [any SealedColumn] = [
            BirthDateRotation.accounts(database: pool, dates: TestAccounts.birthDates),
            BirthDateRotation.emailTokens(database: pool, dates: TestAccounts.birthDates),
        ]
        var resealed: [Int] = []
        for column in columns { resealed.append(try await column.resealAll()) }
        return resealed
    }

    /// Plaintext dates (accounts and pending changes) and dates sealed under the current key, by column.
    static func storedForms(_ pool: PostgresPool) async throws -> (plain: Int, current: Int) {
        let rows = try await pool.query(
            """
            SELECT (SELECT count(*) FROM identity.accounts WHERE date_of_birth IS NOT NULL)
                    + (SELECT count(*) FROM identity.email_tokens WHERE new_date_of_birth IS NOT NULL),
                (SELECT count(*) FROM identity.accounts
                    WHERE convert_from(substring(date_of_birth_sealed FROM 3 FOR get_byte(date_of_birth_sealed, 1)), 'UTF8') = 'test-2')
                    + (SELECT count(*) FROM identity.email_tokens
                    WHERE convert_from(substring(new_date_of_birth_sealed FROM 3 FOR get_byte(new_date_of_birth_sealed, 1)), 'UTF8') = 'test-2')
            """)
        let (plain, current) = try rows[0].decode((Int, Int).self)
        return (plain, current)
    }

    /// Writes `account`'s date back as a row from before sealing holds it: plaintext.
    static func unseal(_ account: AccountRecord, _ pool: PostgresPool) async throws {
        try await pool.query(
            """
            UPDATE identity.accounts SET date_of_birth = \(account.dateOfBirth.description)::date,
                date_of_birth_sealed = NULL
            WHERE id = \(account.id)
            """)
    }

    @Test func datesFromBeforeSealingAndUnderAnOldKeyAreReadThenSealedUnderTheCurrentKey() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let before = try await test.registerVerified("before", born: (1979, 5, 17))
            let old = try await test.register("old_key", born: (1983, 8, 30))
            try await Self.unseal(before, pool)
            let oldSealed = TestDataKeys.old.seal(
                Array("1983-08-30".utf8), context: "identity.accounts.date_of_birth/\(old.id)")
            try await pool.query(
                "UPDATE identity.accounts SET date_of_birth_sealed = \(oldSealed)::bytea WHERE id = \(old.id)"
            )
            // A change requested before sealing carries its new date in plaintext.
            try await test.accounts.requestDateOfBirthChange(
                accountID: before.id, password: "correct horse 1",
                dateOfBirth: DateComponents(year: 1979, month: 5, day: 18))
            try await pool.query(
                """
                UPDATE identity.email_tokens SET new_date_of_birth = '1979-05-18', new_date_of_birth_sealed = NULL
                WHERE purpose = 'confirm_date_of_birth'
                """)

            #expect(try await test.accounts.me(TestCallers.of(before)).dateOfBirth == before.dateOfBirth)
            #expect(try await test.accounts.me(TestCallers.of(old)).dateOfBirth == old.dateOfBirth)
            #expect(try await Self.storedForms(pool) == (2, 0))

            #expect(try await Self.rotateData(pool) == [2, 1])
            #expect(try await Self.storedForms(pool) == (0, 3))
            let dump = try await dataDump(of: "identity", on: pool)
            #expect(!dump.contains("1979-05-17") && !dump.contains("1983-08-30"))
            #expect(try await test.accounts.me(TestCallers.of(old)).dateOfBirth == old.dateOfBirth)
            let token = try await TestMailbox(pool).token(to: before.email)
            #expect(try await test.accounts.confirmDateOfBirthChange(token: token) == .adult)
            #expect(
                try await test.accounts.me(TestCallers.of(before)).dateOfBirth
                    == CalendarDate(year: 1979, month: 5, day: 18))
            #expect(try await Self.rotateData(pool) == [0, 0])
        }
    }

    @Test func aRotationSealsEveryOldDateWhileAccountsAreRegisteredAndRead() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            var written: [AccountRecord] = []
            for index in 0..<12 {
                let account = try await test.register("early\(index)", born: (1990, 1, index + 1))
                if index.isMultiple(of: 2) {
                    try await Self.unseal(account, pool)
                } else {
                    let sealed = TestDataKeys.old.seal(
                        Array(account.dateOfBirth.description.utf8),
                        context: "identity.accounts.date_of_birth/\(account.id)")
                    try await pool.query(
                        "UPDATE identity.accounts SET date_of_birth_sealed = \(sealed)::bytea WHERE id = \(account.id)"
                    )
                }
                written.append(account)
            }

            let accounts = BirthDateRotation.accounts(database: pool, dates: TestAccounts.birthDates)
            async let resealed = accounts.resealAll()
            for index in 0..<10 {
                let account = try await test.register("during\(index)", born: (2000, 2, index + 1))
                written.append(account)
                let early = written[index]
                #expect(try await test.accounts.me(TestCallers.of(early)).dateOfBirth == early.dateOfBirth)
            }
            #expect(try await resealed == 12)

            #expect(try await Self.storedForms(pool) == (0, 22))
            for account in written {
                #expect(
                    try await test.accounts.me(TestCallers.of(account)).dateOfBirth == account.dateOfBirth)
            }
            #expect(try await accounts.resealAll() == 0)
        }
    }
}
