import LoadTestKit
import KindredAPI
import KindredMessages
import KindredRPC
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

    /// What every user of the run shares: the recorder, each kind of stream's deliveries and board, the seed
    /// and the mix.
    struct Shared: Sendable {
        let recorder: Recorder
        let messages: LiveStream
        let activity: LiveStream
        let notifications: LiveStream
        let seed: SeedFile
        let mix: Mix
    }

    let index: Int
    let id: String
    let persona: Persona
    let friendIDs: [String]
    let friendIndexes: [Int]
    /// The baby profiles it owns or follows (indexes of `BabyFamilies`).
    let profiles: [Int]
    let clients: Clients
    let shared: Shared
    let session:
        Mutex<
            (
                refreshToken: String, accessToken: String?, expiresAt: ContinuousClock.Instant,
                exchange: Task<String, any Error>?
            )
        >

    init(index: Int, refreshToken: String, clients: Clients, shared: Shared) {
        let (users, families) = (shared.seed.seededUsers, shared.seed.families)
        self.index = index
        id = users.userID(index)
        persona = .of(user: index, families: families)
        friendIndexes = users.friends(of: index, perSide: shared.seed.friendsPerSide)
        friendIDs = friendIndexes.map(users.userID)
        profiles = families.ownedProfile(of: index).map { [$0] } ?? families.followedProfiles(of: index)
        self.clients = clients
        self.shared = shared
        session = Mutex((refreshToken, nil, .now, nil))
    }

    var recorder: Recorder { shared.recorder }

    var refreshToken: String { session.withLock { $0.refreshToken } }

    /// Exchanges the refresh token for an access token (identity rotates the refresh token), as an app
    /// resuming a session; again when the access token is within a minute of expiring. One exchange at a
    /// time: two would present the same refresh token, which identity takes for theft and ends the session.
    func accessToken() async throws -> String {
        let (current, expiresAt, running) = session.withLock { ($0.accessToken, $0.expiresAt, $0.exchange) }
        if let current, expiresAt - .now > .seconds(60) { return current }
        if let running { return try await running.value }
        let exchange = session.withLock { state in
            if let running = state.exchange { return running }
            let refresh = state.refreshToken
            let task = Task { try await self.exchange(refresh) }
            state.exchange = task
            return task
        }
        return try await exchange.value
    }

    private func exchange(_ refresh: String) async throws -> String {
        let method = Kindred_Identity_V1_IdentityService.Method.token
        let started = ContinuousClock.now
        do {
            let response = try await Kindred_Identity_V1_IdentityService.Client(clients.identity).token(
                .init(grantType: "refresh_token", refreshToken: refresh),
                options: CallOptions(timeout: .seconds(30)))
            recorder.record(method.rpcName, latency: .now - started, failure: nil)
            session.withLock {
                $0 = (response.refreshToken, response.accessToken, .now + .seconds(response.expiresIn), nil)
            }
            return response.accessToken
        } catch {
            recorder.record(method.rpcName, latency: .now - started, failure: "\(error.code)")
            session.withLock { $0.exchange = nil }
            throw error
        }
    }

    func options(timeout: Duration = .seconds(30)) async throws -> CallOptions {
        var options = CallOptions(timeout: timeout)
        options.metadata.add("authorization", "Bearer \(try await accessToken())")
        return options
    }
}
