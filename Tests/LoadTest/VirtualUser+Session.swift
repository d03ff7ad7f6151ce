import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit
import Synchronization

/// A seeded user as the app on its phone: clients of the connections it shares, its refresh token and the
/// access token it resumed with, its friends and baby profiles.
final class VirtualUser: Sendable {
    struct Clients: Sendable {
        let identity: RPCClient
        let family: RPCClient
        let social: RPCClient
        let gamification: RPCClient
    }

    /// What every user of the run shares: the recorder, each kind of stream's deliveries and board, the seed,
    /// the mix and each call's deadline (from its due time, or its start in the closed loop).
    struct Shared: Sendable {
        let recorder: Recorder
        let messages: LiveStream
        let activity: LiveStream
        let notifications: LiveStream
        let seed: SeedFile
        let mix: Mix
        let deadline: Duration
    }

    /// The session: the refresh token, the call options carrying the access token (built once a token, not
    /// once a call), when it expires, the exchange under way, and after a failed one, when to try again.
    struct Session {
        var refreshToken: String
        var authorized: CallOptions?
        var expiresAt: ContinuousClock.Instant
        var exchange: Task<CallOptions, any Error>?
        var retryAt: ContinuousClock.Instant?
    }

    let index: Int
    let id: String
    let persona: Persona
    let friendIDs: [String]
    let friendIndexes: [Int]
    /// The baby profiles it owns or follows (indexes of `BabyFamilies`).
    let profiles: [Int]
    let clients: Clients
    /// The event loop the user runs on, its clients' connections' own (none: the cooperative pool).
    let loop: EventLoop?
    let shared: Shared
    let session: Mutex<Session>
    /// What a screen-time user's uploads send; its session ids are this run's own.
    let phone: Mutex<ScreenTimePhone>

    init(index: Int, refreshToken: String, clients: Clients, loop: EventLoop?, shared: Shared) {
        let (users, families) = (shared.seed.seededUsers, shared.seed.families)
        self.index = index
        id = users.userID(index)
        persona = .of(user: index, families: families)
        friendIndexes = users.friends(of: index, perSide: shared.seed.friendsPerSide)
        friendIDs = friendIndexes.map(users.userID)
        profiles = families.ownedProfile(of: index).map { [$0] } ?? families.followedProfiles(of: index)
        self.clients = clients
        self.loop = loop
        self.shared = shared
        session = Mutex(Session(refreshToken: refreshToken, expiresAt: .now))
        let firstApp = index % Self.apps.count
        phone = Mutex(
            ScreenTimePhone(
                idPrefix: "lt-\(index)-\(Self.newKey())",
                apps: Array(Self.apps[firstApp...] + Self.apps[..<firstApp])))
    }

    var recorder: Recorder { shared.recorder }

    var refreshToken: String { session.withLock { $0.refreshToken } }

    /// After a failed exchange, calls fail at once for this long rather than each start an exchange of its own:
    /// past the knee, a storm of Token calls would otherwise be most of what the tool sends.
    static let retryAfterFailedExchange: Duration = .seconds(1)

    /// Call options carrying an access token: exchanges the refresh token for one (identity rotates the
    /// refresh token), as an app resuming a session; again when it is within a minute of expiring. One
    /// exchange at a time: two would present the same refresh token, which identity takes for theft.
    func authorizedOptions() async throws -> CallOptions {
        enum Ready {
            case now(CallOptions)
            case after(Task<CallOptions, any Error>)
        }
        let ready = try session.withLock { state throws -> Ready in
            if let options = state.authorized, state.expiresAt - .now > .seconds(60) { return .now(options) }
            if let running = state.exchange { return .after(running) }
            if let retryAt = state.retryAt, retryAt > .now {
                throw RPCError(.unavailable, "the last session resume failed")
            }
            let refresh = state.refreshToken
            let task = Task(executorPreference: loop) { try await self.exchange(refresh) }
            state.exchange = task
            return .after(task)
        }
        switch ready {
        case .now(let options): return options
        case .after(let exchange): return try await exchange.value
        }
    }

    private func exchange(_ refresh: String) async throws -> CallOptions {
        let method = Kindred_Identity_V1_IdentityService.Method.token
        let started = ContinuousClock.now
        do {
            let response = try await Kindred_Identity_V1_IdentityService.Client(clients.identity).token(
                .init(grantType: "refresh_token", refreshToken: refresh),
                options: CallOptions(timeout: shared.deadline))
            recorder.record(method.path, latency: .now - started)
            var options = CallOptions()
            options.metadata.add("authorization", "Bearer \(response.accessToken)")
            session.withLock {
                $0 = Session(
                    refreshToken: response.refreshToken, authorized: options,
                    expiresAt: .now + .seconds(response.expiresIn))
            }
            return options
        } catch {
            let latency = ContinuousClock.now - started
            recorder.record(
                method.path, latency: latency, failure: Recorder.failure(of: error),
                answeredAfterSending: latency)
            session.withLock {
                $0.exchange = nil
                $0.retryAt = .now + Self.retryAfterFailedExchange
            }
            throw error
        }
    }
}
