@testable import IdentityService
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("DeleteAccount")
struct DeletionTests {
    @Test func deletionNeedsThePasswordAgain() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            let wrong = await rpcError {
                try await test.accounts.deleteAccount(account.id, password: "wrong pass 1")
            }
            #expect(wrong?.code == .permissionDenied)
            #expect(wrong?.reason == "PASSWORD_INCORRECT")
            let missing = await rpcError { try await test.accounts.deleteAccount(account.id, password: "") }
            #expect(missing?.badFields == ["password"])
            #expect(try await test.accounts.me(TestCallers.of(account)) == account.withEmailVerified)
        }
    }

    @Test func deletionRemovesTheAccountAndItsTokensAndEmitsUserDeleted() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.register("mia_r")
            try await test.accounts.deleteAccount(account.id, password: "correct horse 1")
            #expect(await rpcError { try await test.accounts.me(TestCallers.of(account)) }?.code == .notFound)
            #expect(try await pool.query("SELECT 1 FROM identity.email_tokens").isEmpty)
            let events = try await TestEvents.all(pool)
            #expect(events.map(\.type) == ["user.registered", "user.deleted"])
            #expect(
                events.last?.payload
                    == .userDeleted(Kindred_Identity_V1_UserDeleted(userID: account.id.description)))
            let again = await rpcError {
                try await test.accounts.deleteAccount(account.id, password: "correct horse 1")
            }
            #expect(again?.code == .notFound)
        }
    }

    @Test func aDeletedUsernameAndEmailCanBeRegisteredAgain() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let first = try await test.register("mia_r")
            try await test.accounts.deleteAccount(first.id, password: "correct horse 1")
            let second = try await test.accounts.register(
                TestAccounts.request("mia_r", requestID: "second-try"))
            #expect(second.id != first.id)
        }
    }
}

extension AccountRecord {
    var withEmailVerified: AccountRecord {
        AccountRecord(
            id: id, username: username, email: email, emailVerified: true, dateOfBirth: dateOfBirth,
            ageBand: ageBand,
            parentalControls: parentalControls, role: role, createdAt: createdAt, ageAssurance: ageAssurance,
            ageAssuredAt: ageAssuredAt, dateOfBirthChangePending: dateOfBirthChangePending)
    }
}
