import KindredAuth
import KindredRPC
import Testing

private let (whoami, change, adminOnly) = (
    AuthTestService.whoami, AuthTestService.change, AuthTestService.adminOnly
)
private let (hello, peek) = (AuthTestService.hello, AuthTestService.peek)

/// The deny-by-default policy over the wire: a real server and client, tokens in `authorization: Bearer`.
/// Refusals are checked on `Change`, whose handler never looks at its caller: only the transport refuses.
@Suite(.timeLimit(.minutes(1))) struct AuthenticationTests {
    let key = SigningKey()
    var tokens: AuthTestTokens { AuthTestTokens(key: key) }

    func withAuthServer(
        source: TestKeySource? = nil, refreshInterval: Duration = .zero,
        _ body: (AuthTestServer, TestKeySource) async throws -> Void
    ) async throws {
        let source = source ?? TestKeySource([key.verificationKey])
        let server = try AuthTestServer(
            authenticator: TokenAuthenticator(keySource: source, refreshInterval: refreshInterval))
        try await onClientTestLoop {
            do {
                try await body(server, source)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }

    @Test func publicMethodAnswersWithoutATokenAndIgnoresABadOne() async throws {
        try await withAuthServer { (server, _) async throws in
            #expect(try await server.call(hello, token: nil) == "anonymous")
            #expect(try await server.call(hello, token: tokens.token(issuedAgo: 7200)) == "anonymous")
            #expect(try await server.call(hello, token: "garbage") == "anonymous")
            #expect(try await server.call(hello, token: tokens.token(subject: "u7")) == "u7")
        }
    }

    @Test func protectedMethodWithoutATokenIsUnauthenticated() async throws {
        try await withAuthServer { (server, _) async throws in
            #expect(await server.status(change, token: nil) == "UNAUTHENTICATED TOKEN_MISSING")
            // Another scheme is no bearer token.
            let basic = await server.status(change, token: tokens.token(), scheme: "Basic")
            #expect(basic == "UNAUTHENTICATED TOKEN_MISSING")
        }
    }

    @Test(arguments: ["expired", "tampered", "unsigned", "unknown kid", "malformed"])
    func refusedTokenIsUnauthenticatedWithItsReason(_ kind: String) async throws {
        let (token, reason) =
            switch kind {
            case "expired": (tokens.token(issuedAgo: 7200), "TOKEN_EXPIRED")
            case "tampered": (tokens.tampered(), "TOKEN_BAD_SIGNATURE")
            case "unsigned": (tokens.unsigned(), "TOKEN_UNSUPPORTED_ALGORITHM")
            case "unknown kid": (AuthTestTokens(key: SigningKey()).token(), "TOKEN_UNKNOWN_KEY_ID")
            default: ("not.a.token", "TOKEN_MALFORMED")
            }
        try await withAuthServer { (server, _) async throws in
            #expect(await server.status(change, token: token) == "UNAUTHENTICATED \(reason)")
        }
    }

    @Test func handlerSeesTheVerifiedCaller() async throws {
        try await withAuthServer { (server, _) async throws in
            let token = tokens.token(subject: "u42", role: .admin)
            #expect(try await server.call(whoami, token: token) == "u42 admin full")
            #expect(try await server.call(adminOnly, token: token) == "u42")
            // The scheme is case-insensitive.
            #expect(try await server.call(whoami, token: token, scheme: "bearer") == "u42 admin full")
        }
    }

    @Test func roleHelperRefusesOtherRoles() async throws {
        try await withAuthServer { (server, _) async throws in
            let answer = await server.status(adminOnly, token: tokens.token(role: .user))
            #expect(answer == "PERMISSION_DENIED ROLE_NOT_ALLOWED")
        }
    }

    @Test func childModeTokenReadsButChangesNothing() async throws {
        try await withAuthServer { (server, _) async throws in
            let child = tokens.token(subject: "kid", scope: .childReadOnly)
            #expect(try await server.call(whoami, token: child) == "kid user child_readonly")
            #expect(await server.status(change, token: child) == "PERMISSION_DENIED CHILD_MODE_READ_ONLY")
            #expect(await server.status(adminOnly, token: child) == "PERMISSION_DENIED CHILD_MODE_READ_ONLY")
            // A public method answers, but one that changes something gets no child caller to act for.
            #expect(try await server.call(peek, token: child) == "kid")
            #expect(try await server.call(hello, token: child) == "anonymous")
            #expect(try await server.call(change, token: tokens.token()) == "changed")
        }
    }

    @Test func childModeTokenMayCallTheWayOutTheServiceDeclares() async throws {
        try await withAuthServer { (server, _) async throws in
            let child = tokens.token(subject: "kid", scope: .childReadOnly)
            #expect(try await server.call(AuthTestService.leaveChildMode, token: child) == "kid left")
            #expect(
                await server.status(AuthTestService.leaveChildMode, token: nil)
                    == "UNAUTHENTICATED TOKEN_MISSING")
        }
    }

    @Test func keyRotatedInAtTheSourceIsPickedUpAndOldKeysKeepVerifying() async throws {
        try await withAuthServer { (server, source) async throws in
            let oldToken = tokens.token(subject: "old")
            #expect(try await server.call(whoami, token: oldToken) == "old user full")
            #expect(source.fetches == 1, "keys load on first use")

            let newKey = SigningKey()
            source.publish([newKey.verificationKey, key.verificationKey])
            let newToken = AuthTestTokens(key: newKey).token(subject: "new")
            #expect(try await server.call(whoami, token: newToken) == "new user full")
            #expect(source.fetches == 2, "an unknown kid fetched the keys again")
            #expect(try await server.call(whoami, token: oldToken) == "old user full")
            #expect(try await server.call(whoami, token: newToken) == "new user full")
            #expect(source.fetches == 2, "known keys need no fetch")
        }
    }

    @Test func unknownKidsRefreshAtMostOncePerInterval() async throws {
        try await withAuthServer(refreshInterval: .seconds(3600)) { (server, source) async throws in
            #expect(try await server.call(whoami, token: tokens.token()) == "user-1 user full")
            for _ in 0..<5 {
                let stranger = AuthTestTokens(key: SigningKey()).token()
                #expect(
                    await server.status(change, token: stranger) == "UNAUTHENTICATED TOKEN_UNKNOWN_KEY_ID")
            }
            #expect(source.fetches == 1)
        }
    }

    @Test func keysThatCannotBeLoadedMakeProtectedCallsUnavailable() async throws {
        let unreachable = TestKeySource([key.verificationKey], reachable: false)
        try await withAuthServer(source: unreachable) { (server, source) async throws in
            let answer = await server.status(change, token: tokens.token())
            #expect(answer == "UNAVAILABLE SIGNING_KEYS_UNAVAILABLE")
            #expect(try await server.call(peek, token: tokens.token()) == "anonymous")
            #expect(await server.status(change, token: nil) == "UNAUTHENTICATED TOKEN_MISSING")

            source.setReachable(true)
            #expect(try await server.call(whoami, token: tokens.token()) == "user-1 user full")
        }
    }
}

/// A server whose configuration names no authenticator: public methods work, protected ones refuse all.
@Suite(.timeLimit(.minutes(1))) struct UnconfiguredAuthenticationTests {
    @Test func protectedMethodsRefuseEveryCallWithoutAnAuthenticator() async throws {
        let server = try AuthTestServer(authenticator: nil)
        let token = AuthTestTokens(key: SigningKey()).token()
        try await onClientTestLoop { () async throws in
            #expect(try await server.call(hello, token: token) == "anonymous")
            #expect(await server.status(change, token: nil) == "UNAUTHENTICATED TOKEN_MISSING")
            #expect(await server.status(change, token: token) == "UNAUTHENTICATED TOKEN_UNKNOWN_KEY_ID")
            await server.stop()
        }
    }
}
