@testable import IdentityService
import FoundationEssentials
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredTestSupport
import Testing

/// Dates of birth at rest: sealed in the tables (a dump shows no date), read back through the API as given,
/// and each bound to its row.
@Suite("Dates of birth sealed")
struct BirthDateSealingTests {
    @Test func aRegisteredDateOfBirthIsSealedInTheDatabaseAndComesBackThroughGetMe() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await IdentityTestServer.with(test) { server in
                let account = try await test.register("mia_r", born: (1987, 11, 23))
                let me = try await server.client.getMe(
                    Kindred_Identity_V1_GetMeRequest(),
                    options: IdentityTestServer.bearer(TestCallers.token(account.id.description)))
                #expect(me.account?.dateOfBirth == DateComponents(year: 1987, month: 11, day: 23))

                let stored = try await pool.query(
                    """
                    SELECT date_of_birth IS NULL, date_of_birth_sealed IS NOT NULL
                    FROM identity.accounts WHERE id = \(account.id)
                    """)
                #expect(try stored[0].decode((Bool, Bool).self) == (true, true))
                let dump = try await dataDump(of: "identity", on: pool)
                #expect(dump.contains("mia_r") && !dump.contains("1987-11-23"))
            }
        }
    }

    @Test func aRequestedNewDateIsSealedWithItsTokenUntilTheChangeIsConfirmed() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r", born: (1990, 4, 12))
            try await test.accounts.requestDateOfBirthChange(
                accountID: account.id, password: "correct horse 1",
                dateOfBirth: DateComponents(year: 1991, month: 7, day: 9))

            let pending = try await pool.query(
                """
                SELECT count(*) FILTER (WHERE new_date_of_birth_sealed IS NOT NULL),
                    count(*) FILTER (WHERE t::text LIKE '%1991-07-09%')
                FROM identity.email_tokens t WHERE purpose = 'confirm_date_of_birth'
                """)
            #expect(try pending[0].decode((Int, Int).self) == (1, 0))

            let token = try await TestMailbox(pool).token(to: account.email)
            #expect(try await test.accounts.confirmDateOfBirthChange(token: token) == .adult)
            let changed = try await test.accounts.me(TestCallers.of(account))
            #expect(changed.dateOfBirth == CalendarDate(year: 1991, month: 7, day: 9))
            let stored = try await pool.query(
                "SELECT a::text LIKE '%1991-07-09%' FROM identity.accounts a WHERE id = \(account.id)")
            #expect(try stored[0].decode(Bool.self, column: 0) == false)
        }
    }

    @Test func aSealedDateCopiedToAnotherAccountDoesNotOpen() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let adult = try await test.register("adult", born: (1980, 1, 1))
            let teen = try await test.register("teen", born: (2011, 1, 1))
            try await pool.query(
                """
                UPDATE identity.accounts SET date_of_birth_sealed =
                    (SELECT date_of_birth_sealed FROM identity.accounts WHERE id = \(adult.id))
                WHERE id = \(teen.id)
                """)
            await #expect(throws: FieldCipherError.cannotOpen) {
                _ = try await test.accounts.me(TestCallers.of(teen))
            }
        }
    }
}
