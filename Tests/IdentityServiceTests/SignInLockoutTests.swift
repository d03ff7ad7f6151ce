@testable import IdentityService
import KindredAuth
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Token: the brute-force lockout")
struct SignInLockoutTests {
    /// The answer to one sign-in attempt: its reason, or "OK".
    static func attempt(_ fixture: SignInFixture, _ identifier: String, _ password: String = "guess 123")
        async -> String
    {
        let error = await rpcError {
            try await fixture.credentials.passwordGrant(identifier: identifier, password: password)
        }
        return error.map { $0.reason ?? "\($0.code)" } ?? "OK"
    }

    @Test(arguments: ["mia_r", "nobody_here"])
    func fiveFailuresInARowLockTheIdentifierWhetherOrNotItExists(identifier: String) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            for _ in 0..<5 { #expect(await Self.attempt(fixture, identifier) == "INVALID_CREDENTIALS") }
            let locked = await rpcError {
                try await fixture.credentials.passwordGrant(
                    identifier: identifier, password: SignInFixture.password)
            }
            #expect(locked?.code == .resourceExhausted)
            #expect(locked?.reason == "SIGN_IN_LOCKED")
            #expect(locked?.retryDelay.map { (.seconds(4)...(.seconds(5))).contains($0) } == true)
        }
    }

    @Test func theLockGrowsWithEachFailureAfterIt() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            for _ in 0..<5 { _ = await Self.attempt(fixture, "mia_r") }
            var delays: [Duration] = []
            for _ in 0..<8 {
                _ = try await fixture.sql("UPDATE identity.sign_in_failures SET locked_until = now()")
                #expect(await Self.attempt(fixture, "mia_r") == "INVALID_CREDENTIALS")
                let error = await rpcError {
                    try await fixture.credentials.passwordGrant(identifier: "mia_r", password: "x1")
                }
                delays.append(try #require(error?.retryDelay))
            }
            let seconds = delays.map { $0.components.seconds }
            let doubling: [Int64] = [10, 20, 40, 80, 160, 320, 640, 900]
            #expect(zip(seconds, doubling).allSatisfy { ($1 - 1...$1).contains($0) }, "\(seconds)")
        }
    }

    @Test func aSuccessResetsTheCount() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            for _ in 0..<4 { _ = await Self.attempt(fixture, "mia_r") }
            #expect(await Self.attempt(fixture, "mia_r", SignInFixture.password) == "OK")
            for _ in 0..<4 { #expect(await Self.attempt(fixture, "mia_r") == "INVALID_CREDENTIALS") }
            #expect(await Self.attempt(fixture, "mia_r", SignInFixture.password) == "OK")
        }
    }

    @Test func whileLockedEvenTheRightPasswordIsRefused() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            for _ in 0..<5 { _ = await Self.attempt(fixture, "MIA_R") }
            #expect(await Self.attempt(fixture, "mia_r", SignInFixture.password) == "SIGN_IN_LOCKED")
            #expect(await Self.attempt(fixture, "mia_r@example.com", SignInFixture.password) == "OK")
        }
    }

    @Test func concurrentAttemptsOnAnyInstanceGetFiveTriesBetweenThem() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            // Two "instances": separate hashers and key rings over the same database and secret.
            let first = try await SignInFixture(pool)
            let instances = [first, try await SignInFixture(pool, secret: first.secret)]
            try await first.account("mia_r")
            let answers = await withTaskGroup(of: String.self) { group in
                for index in 0..<12 { group.addTask { await Self.attempt(instances[index % 2], "mia_r") } }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(answers.filter { $0 == "INVALID_CREDENTIALS" }.count == 5)
            #expect(answers.filter { $0 == "SIGN_IN_LOCKED" }.count == 7)
        }
    }

    @Test func failuresOlderThanADayAreForgotten() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            for _ in 0..<4 { _ = await Self.attempt(fixture, "mia_r") }
            _ = try await fixture.sql(
                "UPDATE identity.sign_in_failures SET last_failure_at = now() - interval '25 hours'")
            for _ in 0..<4 { #expect(await Self.attempt(fixture, "mia_r") == "INVALID_CREDENTIALS") }
            let rows = try await fixture.sql("SELECT failures FROM identity.sign_in_failures")
            #expect(try rows[0].decode(Int.self, column: 0) == 4)
            _ = try await fixture.sql(
                "UPDATE identity.sign_in_failures SET last_failure_at = now() - interval '25 hours'")
            #expect(try await fixture.credentials.signIn.lockout.sweep() == 1)
        }
    }

    @Test func aSweepOfMoreOldCountersThanABatchForgetsThemAll() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            for name in ["mia_r", "leo_r", "ada_r"] { _ = await Self.attempt(fixture, name) }
            _ = try await fixture.sql(
                "UPDATE identity.sign_in_failures SET last_failure_at = now() - interval '25 hours'")

            #expect(try await fixture.credentials.signIn.lockout.sweep(batchesOf: 2) == 3)
            let rows = try await fixture.sql("SELECT count(*) FROM identity.sign_in_failures")
            #expect(try rows[0].decode(Int.self, column: 0) == 0)
        }
    }

    @Test func theCounterIsKeyedByAHashThatNamesNoOne() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            _ = await Self.attempt(fixture, "Mia_R@example.com")
            let rows = try await fixture.sql("SELECT identifier_hash FROM identity.sign_in_failures")
            let stored = try rows[0].decode([UInt8].self, column: 0)
            #expect(stored == fixture.secret.keyedHash("mia_r@example.com"))
            #expect(stored != ServiceSecret.generate().keyedHash("mia_r@example.com"))
        }
    }
}
