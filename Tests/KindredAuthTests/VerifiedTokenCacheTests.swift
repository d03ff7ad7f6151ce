@testable import KindredAuth
import Testing

@Suite struct VerifiedTokenCacheTests {
    let clock = ManualClock()
    let signer = TokenSigner(key: Fixture.key())

    private func token(_ index: Int, lifetime: Int64 = 900) -> String {
        signer.sign(Fixture.claims(lifetime: lifetime, tokenID: "jti-\(index)"))
    }

    @Test func aRepeatedTokenIsVerifiedOnce() throws {
        let verifier = CountingVerifier(keys: [Fixture.key().verificationKey], clock: clock)
        let first = try verifier.verify(token(0))
        for _ in 0..<100 { #expect(try verifier.verify(token(0)) == first) }
        _ = try verifier.verify(token(1))
        #expect(verifier.signatureChecks == 2)
    }

    @Test func aRefusedTokenIsCheckedAgainEveryTime() {
        let verifier = CountingVerifier(keys: [Fixture.key().verificationKey], clock: clock)
        let valid = token(0)
        let forged = valid.dropLast(2) + (valid.hasSuffix("AA") ? "BA" : "AA")
        for _ in 0..<3 {
            #expect(throws: TokenVerificationError.badSignature) { try verifier.verify(String(forged)) }
        }
        #expect(verifier.signatureChecks == 3)
        #expect(verifier.verifier.state.withLock { $0.cache.count } == 0)
    }

    @Test func aCachedTokenExpiresWithoutAnotherCheck() throws {
        let verifier = CountingVerifier(keys: [Fixture.key().verificationKey], clock: clock)
        _ = try verifier.verify(token(0))
        clock.set(Fixture.issuedAt + 900 + 59)
        _ = try verifier.verify(token(0))
        clock.set(Fixture.issuedAt + 900 + 60)
        #expect(throws: TokenVerificationError.expired) { try verifier.verify(token(0)) }
        #expect(throws: TokenVerificationError.expired) { try verifier.verify(token(0)) }
        #expect(
            verifier.signatureChecks == 2, "one check to cache it, one after the expired entry was dropped")
    }

    @Test func theCacheHoldsAtMostItsCapacityAndKeepsTheNewest() throws {
        let verifier = CountingVerifier(keys: [Fixture.key().verificationKey], clock: clock, cacheCapacity: 4)
        for index in 0..<10 { _ = try verifier.verify(token(index)) }
        #expect(verifier.verifier.state.withLock { $0.cache.count } == 4)
        for index in 6..<10 { _ = try verifier.verify(token(index)) }
        #expect(verifier.signatureChecks == 10)
        _ = try verifier.verify(token(0))
        #expect(verifier.signatureChecks == 11)
    }

    @Test func aFullCacheEvictsExpiredTokensBeforeTheOldest() throws {
        let verifier = CountingVerifier(
            keys: [Fixture.key().verificationKey], clock: clock, leeway: .zero, cacheCapacity: 3)
        _ = try verifier.verify(token(0))
        _ = try verifier.verify(token(1, lifetime: 100))
        _ = try verifier.verify(token(2))
        clock.set(Fixture.issuedAt + 200)
        _ = try verifier.verify(token(3))
        _ = try verifier.verify(token(0))
        #expect(verifier.signatureChecks == 4, "token 0, the oldest, outlived the expired token 1")
        _ = try verifier.verify(token(4))
        _ = try verifier.verify(token(2))
        _ = try verifier.verify(token(3))
        #expect(verifier.signatureChecks == 5, "then, with nothing expired, the oldest went first…")
        _ = try verifier.verify(token(0))
        #expect(verifier.signatureChecks == 6, "…and the oldest was token 0")
    }

    @Test func manyInsertionsAndRemovalsStayWithinCapacity() {
        var cache = VerifiedTokenCache(capacity: 8)
        let caller = Caller(claims: Fixture.claims())
        for index in 0..<20_000 {
            let digest = Array("token-\(index)".utf8).withUnsafeBytes { TokenDigest(hashing: $0) }
            let now = Int64(index / 100)
            cache.insert(
                digest, caller: caller, keyID: index % 3 == 0 ? "a" : "b", lastValidSecond: now + 2, now: now)
            if index % 7 == 0 { _ = cache.lookup(digest, now: now + 5) }
            if index % 1_000 == 0 { cache.retainTokens(signedBy: ["b"]) }
            #expect(cache.count <= 8)
        }
    }

    @Test func concurrentCallersAllGetTheirOwnCaller() async throws {
        let verifier = CountingVerifier(keys: [Fixture.key().verificationKey], clock: clock, cacheCapacity: 8)
        let tokens = (0..<16).map { signer.sign(Fixture.claims(subject: "user-\($0)", tokenID: "jti-\($0)")) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<500 {
                        let index = (task + round) % tokens.count
                        let caller = try verifier.verify(tokens[index])
                        #expect(caller.principal == .client("user-\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(verifier.verifier.state.withLock { $0.cache.count } <= 8)
    }
}
