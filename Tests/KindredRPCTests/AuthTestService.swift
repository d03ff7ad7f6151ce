@testable import KindredAuth
import KindredRPC
import Logging
import Synchronization

/// `test.Auth`: protected and public methods that answer with what the handler saw of its caller.
struct AuthTestService: RPCService {
    static func method(_ name: String, readOnly: Bool = false) -> MethodDescriptor {
        MethodDescriptor(service: "test.Auth", method: name, readOnly: readOnly)
    }

    static let whoami = method("Whoami", readOnly: true)
    static let change = method("Change")
    static let adminOnly = method("AdminOnly")
    static let hello = method("Hello")
    static let peek = method("Peek", readOnly: true)
    static let leaveChildMode = method("LeaveChildMode")

    var publicMethods: MethodSet { [Self.hello, Self.peek] }
    var childModeMethods: MethodSet { [Self.leaveChildMode] }

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Self.whoami) { (_: ClientTestText, context) in
            let caller = try context.authenticatedCaller()
            return ClientTestText("\(caller.subject) \(caller.role.rawValue) \(caller.scope.rawValue)")
        }
        router.registerUnary(Self.change) { (_: ClientTestText, _) in ClientTestText("changed") }
        router.registerUnary(Self.leaveChildMode) { (_: ClientTestText, context) in
            ClientTestText("\(try context.authenticatedCaller().subject) left")
        }
        router.registerUnary(Self.adminOnly) { (_: ClientTestText, context) in
            ClientTestText(try context.authenticatedCaller(as: .admin).subject)
        }
        for method in [Self.hello, Self.peek] {
            router.registerUnary(method) { (_: ClientTestText, context) in
                ClientTestText(context.caller?.subject ?? "anonymous")
            }
        }
    }
}

extension Caller {
    /// `sub` as the token spelled it (an account's id in canonical form), for the handlers' answers.
    fileprivate var subject: String {
        switch principal {
        case .account(let id): UUIDText.format(id)
        case .client(let id): id
        }
    }
}

/// A key source the test changes as it goes: rotate keys in, make identity unreachable, count fetches.
final class TestKeySource: SigningKeySource {
    private let state: Mutex<(keys: [VerificationKey], reachable: Bool, fetches: Int)>

    init(_ keys: [VerificationKey], reachable: Bool = true) {
        state = Mutex((keys, reachable, 0))
    }

    func verificationKeys() async throws -> [VerificationKey] {
        try state.withLock { state in
            state.fetches += 1
            guard state.reachable else { throw TestKeySourceDown() }
            return state.keys
        }
    }

    func publish(_ keys: [VerificationKey]) { state.withLock { $0.keys = keys } }
    func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    var fetches: Int { state.withLock { $0.fetches } }
}

struct TestKeySourceDown: Error {}

/// Tokens as identity would sign them, valid from now, plus the forgeries the server must refuse.
struct AuthTestTokens {
    let key: SigningKey

    func token(
        subject: String = "user-1", role: TokenClaims.Role = .user, scope: TokenClaims.Scope = .full,
        issuedAgo: Int64 = 0, lifetime: Int64 = 900
    ) -> String {
        let issuedAt = TokenClock.system.now - issuedAgo
        return TokenSigner(key: key).sign(
            TokenClaims(
                subject: subject, role: role, ageBand: .adult, parentalControls: false, scope: scope,
                issuedAt: issuedAt, expiresAt: issuedAt + lifetime, tokenID: "jti-\(subject)"))
    }

    /// `alg: none` with the claims of a valid token and no signature.
    func unsigned() -> String {
        let payload = token().split(separator: ".")[1]
        return Base64URL.encode(Array(#"{"alg":"none","kid":"\#(key.keyID)"}"#.utf8)) + ".\(payload)."
    }

    /// A valid token whose claims were edited after signing (another subject, same signature).
    func tampered() -> String {
        let parts = token(subject: "user-1").split(separator: ".")
        let forged = String(decoding: Base64URL.decode(parts[1].utf8)!, as: UTF8.self)
            .replacing("user-1", with: "user-2")
        return "\(parts[0]).\(Base64URL.encode(Array(forged.utf8))).\(parts[2])"
    }
}

/// A server of `AuthTestService` (plus one fully public service) with the authenticator given.
final class AuthTestServer: Sendable {
    let server: RPCServer
    let client: RPCClient
    private let runner: Task<Void, any Error>

    init(authenticator: TokenAuthenticator?) throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = authenticator
        var logger = Logger(label: "auth-tests")
        logger.logLevel = .critical
        server = try RPCServer.bind(
            configuration: configuration, services: [AuthTestService()], logger: logger)
        let server = server
        runner = Task(executorPreference: clientTestLoop) { try await server.run() }
        client = try RPCClient(target: "127.0.0.1:\(server.port)", configuration: .tests)
    }

    /// Calls `method` with `token` as `authorization: Bearer` (none when nil): the answer's text.
    func call(_ method: MethodDescriptor, token: String?, scheme: String = "Bearer") async throws -> String {
        var options = CallOptions(timeout: .seconds(30))
        if let token { options.metadata.add("authorization", "\(scheme) \(token)") }
        let response: ClientTestText = try await client.unary(
            method: method, request: ClientTestText(), options: options)
        return response.text
    }

    /// How `method` answers `token`: `OK`, or its status and `ErrorInfo.reason`, e.g. `UNAUTHENTICATED TOKEN_MISSING`.
    func status(_ method: MethodDescriptor, token: String?, scheme: String = "Bearer") async -> String {
        do {
            _ = try await call(method, token: token, scheme: scheme)
            return "OK"
        } catch let error as RPCError {
            for case .errorInfo(let reason, "kindred.auth", _) in error.details {
                return "\(error.code) \(reason)"
            }
            return "\(error.code)"
        } catch {
            return "\(error)"
        }
    }

    func stop() async {
        client.close()
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
    }
}
