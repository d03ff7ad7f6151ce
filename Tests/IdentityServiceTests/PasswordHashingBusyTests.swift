@testable import IdentityService
import KindredAuth
import KindredRPC
import KindredTestSupport
import Testing

/// A full password-hasher queue gets one answer from every RPC that hashes: UNAVAILABLE
/// `PASSWORD_HASHING_BUSY` with `RetryInfo` (README, "Argon2id cost").
@Suite("A busy password hasher")
struct PasswordHashingBusyTests {
    @Test func registrationAndSignInAnswerAFullQueueAlike() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            // One thread and no queue, at a cost slow enough that concurrent calls find it taken.
            let small = PasswordHasher(
                cost: .init(iterations: 1, memoryKiB: 32 * 1024), concurrency: 1, maxQueued: 0)
            let test = TestAccounts(pool, passwords: small)
            let credentials = try await Credentials.start(
                database: pool, passwords: small, settings: test.settings, logger: IdentityTestDatabase.logger
            )
            let answers = await withTaskGroup(of: RPCError?.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        await rpcError {
                            if index.isMultiple(of: 2) {
                                _ = try await test.accounts.register(TestAccounts.request("user_\(index)"))
                            } else {
                                _ = try await credentials.passwordGrant(
                                    identifier: "nobody_\(index)", password: "guess 123")
                            }
                        }
                    }
                }
                return await group.reduce(into: [RPCError?]()) { $0.append($1) }
            }
            let busy = answers.compactMap { $0 }.filter { $0.reason == "PASSWORD_HASHING_BUSY" }
            #expect(!busy.isEmpty)
            #expect(busy.allSatisfy { $0 == IdentityError.passwordHashingBusy })
            #expect(IdentityError.passwordHashingBusy.code == .unavailable)
            #expect(IdentityError.passwordHashingBusy.retryDelay == .seconds(1))
        }
    }

    @Test func aHasherOutOfMemoryIsAnInternalErrorNotABusyOne() async {
        await #expect(throws: PasswordHasherError.outOfMemory) {
            try await hashing { () async throws -> String in throw PasswordHasherError.outOfMemory }
        }
    }
}
