import KindredAPI
public import KindredRPC
import Synchronization

/// This service's own access token, from identity's client_credentials grant: what the work a service
/// starts on its own (event consumers, sweeps, calls no user asked for) presents to its peers.
///
/// The token is fetched on first use and again shortly before it expires, one fetch at a time however many
/// calls need it.
public final class ServiceCredentials: Sendable {
    /// The client id, as identity's clients file names it (`family`, `social`, ...).
    public let clientID: String
    private let clientSecret: String
    private let identity: Kindred_Identity_V1_IdentityService.Client
    private let state = Mutex<State>(State())

    private struct State {
        var token: (authorization: String, renewAt: ContinuousClock.Instant)?
        var fetch: Task<Result<String, RPCError>, Never>?
    }

    /// Credentials for `clientID` at the identity service at `identityTarget` (`host:port`).
    public init(clientID: String, clientSecret: String, identityTarget: String) throws(RPCError) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        identity = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: identityTarget))
    }

    /// Call options carrying this service's token: for a call the service makes on its own behalf.
    public func callOptions(timeout: Duration? = nil, idempotent: Bool = false) async throws(RPCError)
        -> CallOptions
    {
        var options = CallOptions(timeout: timeout, idempotent: idempotent)
        options.metadata.add("authorization", try await authorization())
        return options
    }

    /// `Bearer <token>`, fetched again once the last one is within a minute of expiring.
    public func authorization() async throws(RPCError) -> String {
        let now = ContinuousClock.now
        let fetch = state.withLock { state -> Task<Result<String, RPCError>, Never>? in
            if let token = state.token, now < token.renewAt { return nil }
            if let running = state.fetch { return running }
            // Detached: one caller's cancellation or deadline must not fail the fetch the others wait for.
            let started = Task.detached { await self.fetchToken() }
            state.fetch = started
            return started
        }
        guard let fetch else { return state.withLock { $0.token!.authorization } }
        return try await fetch.value.get()
    }

    private func fetchToken() async -> Result<String, RPCError> {
        let started = ContinuousClock.now
        let outcome: Result<String, RPCError>
        do {
            let response = try await identity.token(
                .init(grantType: "client_credentials", clientID: clientID, clientSecret: clientSecret),
                options: CallOptions(timeout: .seconds(5), idempotent: true))
            let lifetime = Duration.seconds(response.expiresIn)
            let authorization = "Bearer \(response.accessToken)"
            outcome = .success(authorization)
            state.withLock { $0.token = (authorization, started + max(.zero, lifetime - Self.renewalMargin)) }
        } catch {
            let fault = RPCError.Fault("this service cannot get its access token from identity: \(error)")
            outcome = .failure(.unavailable(fault))
        }
        state.withLock { $0.fetch = nil }
        return outcome
    }

    /// How long before expiry a token is replaced, so that a call never leaves with one about to lapse.
    private static let renewalMargin = Duration.seconds(60)
}
