@testable import IdentityService
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredTestSupport
import Testing

/// Emails at rest (`AccountEmails`): sealed in `identity.accounts`, nowhere in a dump of identity's schema, found
/// by their blind index whatever their case, and addresses from before sealing found as they are and then sealed
/// and indexed by `keys rotate-data`.
@Suite struct EmailSealingTests {
    @Test func anEmailIsNowhereInTheDumpAndIsFoundByItsBlindIndex() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("quillon_b")
            let dump = try await dataDump(of: "identity", on: pool)
            #expect(readableMarkers([account.email], in: dump).isEmpty)
            #expect(readableMarkers(["quillon_b"], in: dump) == ["quillon_b"], "the username stays plain")
            #expect(try await test.accounts.me(TestCallers.of(account)).email == account.email)
            let found = try await AccountStore.addressee(
                email: account.email.uppercased(), emails: test.accounts.emails, on: pool)
            #expect(found?.id == account.id && found?.email == account.email)
        }
    }

    @Test func anEmailFromBeforeSealingIsFoundAndThenSealedByTheRotation() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("quillon_b")
            try await pool.query(
                """
                UPDATE identity.accounts
                SET email = 'Old.Quillon@example.com', email_sealed = NULL, email_index = NULL
                WHERE id = \(account.id)
                """)
            let emails = test.accounts.emails
            #expect(
                try await AccountStore.addressee(email: "old.quillon@EXAMPLE.com", emails: emails, on: pool)?
                    .id
                    == account.id)
            let rotation = EmailRotation(database: pool, emails: emails)
            #expect(try await rotation.resealAll() == 1)
            #expect(try await rotation.resealAll() == 0)
            let dump = try await dataDump(of: "identity", on: pool)
            #expect(readableMarkers(["Old.Quillon@example.com"], in: dump).isEmpty)
            #expect(
                try await AccountStore.addressee(email: "old.quillon@example.com", emails: emails, on: pool)?
                    .email
                    == "Old.Quillon@example.com")
            let taken = await rpcError {
                try await test.accounts.register(
                    TestAccounts.request("other", email: "OLD.QUILLON@example.com"))
            }
            #expect(taken?.reason == "EMAIL_TAKEN")
        }
    }
}
