@testable import KindredAuth
import Synchronization
import Testing

/// A key source that counts fetches, can be made to fail, and can hold a fetch until released.
final class ScriptedKeySource: SigningKeySource {
    private struct State {
        var keys: [VerificationKey]
        var failing = false
        var fetches = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var holding = false
    }

    private let state: Mutex<State>

    init(_ keys: [VerificationKey]) {
        state = Mutex(State(keys: keys))
    }

    func verificationKeys() async throws -> [VerificationKey] {
        let holding = state.withLock { state in
            state.fetches += 1
            return state.holding
        }
        if holding {
            await withCheckedContinuation { continuation in state.withLock { $0.held.append(continuation) } }
        }
        return try state.withLock { state in
            guard !state.failing else { throw TestSourceFailure() }
            return state.keys
        }
    }

    func publish(_ keys: [VerificationKey]) { state.withLock { $0.keys = keys } }
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
    func hold() { state.withLock { $0.holding = true } }
    var fetches: Int { state.withLock { $0.fetches } }
    var heldFetches: Int { state.withLock { $0.held.count } }

    /// Lets every held fetch go on, and fetches from now on too.
    func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}

struct TestSourceFailure: Error {}

@Suite(.timeLimit(.minutes(1))) struct TokenAuthenticatorTests {
    let clock = ManualClock()
    let key = Fixture.key()

    func authenticator(_ source: ScriptedKeySource, refreshInterval: Duration = .zero) -> TokenAuthenticator {
        TokenAuthenticator(keySource: source, refreshInterval: refreshInterval, clock: clock.tokenClock)
    }

    func token(_ key: SigningKey, _ id: String = "t1") -> Substring {
        Substring(TokenSigner(key: key).sign(Fixture.claims(tokenID: id)))
    }

    @Test func keysLoadOnFirstUseAndKnownKeysNeedNoFetch() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        let authenticator = authenticator(source)
        #expect(authenticator.verifyWithLoadedKeys(token(key)) == .failure(.unknownKeyID))
        #expect(try await authenticator.authenticate(token(key)).tokenID == "t1")
        #expect(try await authenticator.authenticate(token(key, "t2")).tokenID == "t2")
        #expect(source.fetches == 1)
        #expect(try authenticator.verifyWithLoadedKeys(token(key)).get().tokenID == "t1")
    }

    @Test func refusedTokensFetchNothing() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        let authenticator = authenticator(source)
        _ = try await authenticator.authenticate(token(key))
        clock.set(Fixture.issuedAt + 7200)
        await #expect(throws: TokenAuthenticationError.refused(.expired)) {
            try await authenticator.authenticate(token(key, "late"))
        }
        await #expect(throws: TokenAuthenticationError.refused(.malformed)) {
            try await authenticator.authenticate("not.a.token")
        }
        #expect(source.fetches == 1)
    }

    @Test func callsWaitingForKeysShareOneFetch() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        source.hold()
        let authenticator = authenticator(source)
        let token = token(key)
        try await withThrowingTaskGroup(of: Caller.self) { group in
            for _ in 0..<20 { group.addTask { try await authenticator.authenticate(token) } }
            while source.heldFetches == 0 { await Task.yield() }
            source.release()
            for try await caller in group { #expect(caller.tokenID == "t1") }
        }
        #expect(source.fetches == 1)
    }

    @Test func unknownKeysRefreshAtMostOncePerInterval() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        let authenticator = authenticator(source, refreshInterval: .seconds(3600))
        _ = try await authenticator.authenticate(token(key))
        let rotated = SigningKey()
        source.publish([rotated.verificationKey, key.verificationKey])
        for index in 0..<5 {
            await #expect(throws: TokenAuthenticationError.refused(.unknownKeyID)) {
                try await authenticator.authenticate(token(rotated, "r\(index)"))
            }
        }
        #expect(source.fetches == 1, "the first load was less than an interval ago")
    }

    @Test func aRotatedKeyIsFetchedAndOldKeysKeepVerifying() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        let authenticator = authenticator(source)
        _ = try await authenticator.authenticate(token(key))
        let rotated = SigningKey()
        source.publish([rotated.verificationKey, key.verificationKey])
        #expect(try await authenticator.authenticate(token(rotated, "new")).tokenID == "new")
        #expect(try await authenticator.authenticate(token(key, "old")).tokenID == "old")
        #expect(source.fetches == 2)
    }

    @Test func keysThatCannotBeFetchedAreUnavailableUntilAFetchSucceeds() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        source.setFailing(true)
        let patient = authenticator(source, refreshInterval: .seconds(3600))
        for _ in 0..<3 {
            await #expect(throws: TokenAuthenticationError.keysUnavailable) {
                try await patient.authenticate(token(key))
            }
        }
        #expect(source.fetches == 1, "a failed fetch is not retried within the interval")

        let eager = authenticator(source)
        await #expect(throws: TokenAuthenticationError.keysUnavailable) {
            try await eager.authenticate(token(key))
        }
        source.setFailing(false)
        #expect(try await eager.authenticate(token(key)).tokenID == "t1")
    }

    @Test func anUnknownKeyWhileTheSourceIsDownIsUnavailableNotRefused() async throws {
        let source = ScriptedKeySource([key.verificationKey])
        let authenticator = authenticator(source)
        _ = try await authenticator.authenticate(token(key))
        source.setFailing(true)
        await #expect(throws: TokenAuthenticationError.keysUnavailable) {
            try await authenticator.authenticate(token(SigningKey()))
        }
        #expect(try await authenticator.authenticate(token(key, "known")).tokenID == "known")
    }
}
