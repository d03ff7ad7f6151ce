@testable import KindredAuth
import Synchronization
import Testing

@Suite struct KeyRotationTests {
    let clock = ManualClock()
    let oldKey = SigningKey()
    let newKey = SigningKey()

    @Test func anOldKeyKeepsVerifyingWhilePresentAndStopsWhenRemoved() throws {
        let verifier = CountingVerifier(keys: [oldKey.verificationKey], clock: clock)
        let oldToken = TokenSigner(key: oldKey).sign(Fixture.claims())
        let newToken = TokenSigner(key: newKey).sign(Fixture.claims())
        _ = try verifier.verify(oldToken)
        #expect(throws: TokenVerificationError.unknownKeyID) { try verifier.verify(newToken) }

        verifier.verifier.replaceKeys([oldKey.verificationKey, newKey.verificationKey])
        #expect(verifier.verifier.keyIDs == [oldKey.keyID, newKey.keyID])
        _ = try verifier.verify(oldToken)
        _ = try verifier.verify(newToken)
        #expect(
            verifier.signatureChecks == 2, "the old token stayed cached across a rotation that kept its key")

        verifier.verifier.replaceKeys([newKey.verificationKey])
        #expect(throws: TokenVerificationError.unknownKeyID) { try verifier.verify(oldToken) }
        _ = try verifier.verify(newToken)
        #expect(verifier.signatureChecks == 2, "the new token is still served from the cache")
    }

    @Test func removingAKeyDropsItsCachedTokens() throws {
        let verifier = CountingVerifier(keys: [oldKey.verificationKey, newKey.verificationKey], clock: clock)
        for index in 0..<5 {
            _ = try verifier.verify(TokenSigner(key: oldKey).sign(Fixture.claims(tokenID: "old-\(index)")))
            _ = try verifier.verify(TokenSigner(key: newKey).sign(Fixture.claims(tokenID: "new-\(index)")))
        }
        #expect(verifier.verifier.state.withLock { $0.cache.count } == 10)
        verifier.verifier.replaceKeys([newKey.verificationKey])
        #expect(verifier.verifier.state.withLock { $0.cache.count } == 5)
        verifier.verifier.replaceKeys([])
        #expect(verifier.verifier.state.withLock { $0.cache.count } == 0)
        #expect(verifier.verifier.keyIDs.isEmpty)
    }

    @Test func aKeyRemovedDuringAVerificationLeavesNothingCached() throws {
        let hook = CheckHook()
        let verifier = TokenVerifier(
            keys: [oldKey.verificationKey], clock: clock.tokenClock, leeway: .seconds(60), cacheCapacity: 8,
            signatureCheckObserver: { hook.run() })
        hook.set { verifier.replaceKeys([]) }
        defer { hook.set {} }
        let token = TokenSigner(key: oldKey).sign(Fixture.claims())
        // The key was present when the check started, so this call succeeds; the result must not outlive it.
        _ = try verifier.verify(token)
        #expect(verifier.state.withLock { $0.cache.count } == 0)
        #expect(throws: TokenVerificationError.unknownKeyID) { try verifier.verify(token) }
    }

    @Test func duplicateKeysInAListCountOnce() {
        let verifier = TokenVerifier(
            keys: [oldKey.verificationKey, oldKey.verificationKey], clock: clock.tokenClock)
        #expect(verifier.keyIDs == [oldKey.keyID])
    }
}

/// Something a test runs at the moment a verifier starts an Ed25519 check.
final class CheckHook: Sendable {
    private let action = Mutex<@Sendable () -> Void>({})

    func set(_ newAction: @escaping @Sendable () -> Void) {
        action.withLock { $0 = newAction }
    }

    func run() {
        action.withLock { $0 }()
    }
}
