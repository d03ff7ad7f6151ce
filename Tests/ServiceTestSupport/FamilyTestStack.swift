// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import Foundation
@testable import FamilyService
@testable import IdentityService
import KindredAPI
import KindredAuth
import KindredEvents
import KindredHandlers
import KindredMail
import KindredPostgres
import KindredRPC
import KindredRuntime
import KindredTestSupport
import Logging

extension TestClock {
    /// The clock family's rules read, standing where the test set this one.
    var wallClock: WallClock { WallClock { self.now } }
}

/// Identity and family served for real on loopback ports over one test database, as they run in the stack:
/// family verifies tokens with identity's published keys and reaches identity with its own client_credentials
/// token. Identity runs on the system clock (tokens must be valid now); family on `clock`, which a test moves
/// (lockouts, expiries, next week).
final class FamilyTestStack: Sendable {
    static let familySecret = "family-test-client-secret-of-at-least-32-bytes"
    static let socialSecret = "social-test-client-secret-of-at-least-32-bytes"
    static let gamificationSecret = "gamification-test-client-secret-of-at-least-32-bytes"
    static let mail = FamilyMail(links: LinkBase("https://kindred.test/app")!, cipher: TestDataKeys.cipher)

    let pool: PostgresPool
    let clock: TestClock
    let identity: Kindred_Identity_V1_IdentityService.Client
    let family: Kindred_Family_V1_FamilyService.Client
    /// Where identity serves (`host:port`), for other servers a test stands beside the stack.
    let identityTarget: String
    /// Where family serves (`host:port`), for other servers a test stands beside the stack.
    let familyTarget: String
    /// What family's parts are built from, for tests of their rules below the RPCs.
    let context: FamilyContext
    /// The directory this stack's gallery photos are stored under, removed when the stack stops.
    let photoRoot: String
    private let api: FamilyAPI
    private let servers: [(server: RPCServer, runner: Task<Void, any Error>)]
    private let identityEvents: EventFeed

    private init(
        _ pool: PostgresPool, clock: TestClock,
        photos: (FilesystemPhotoStore) -> any PhotoObjectStore
    ) async throws {
        self.pool = pool
        self.clock = clock
        let (identityAPI, identityEvents) = try await Self.identityAPI(pool)
        self.identityEvents = identityEvents
        let identityServer = try Self.serve(
            identityAPI, keys: SigningKeyStore(database: pool, secret: Self.identitySecret))
        identityTarget = "127.0.0.1:\(identityServer.server.port)"
        let credentials = try ServiceCredentials(
            clientID: "family", clientSecret: Self.familySecret, identityTarget: identityTarget)
        photoRoot =
            FileManager.default.temporaryDirectory.appendingPathComponent("kindred-photos-\(UUID())").path
        context = FamilyContext(
            database: pool, clock: clock.wallClock, mail: Self.mail,
            identity: try IdentityDirectory(target: identityTarget, credentials: credentials),
            pinHasher: PasswordHasher(cost: .testsOnly, concurrency: 2), logger: FamilyTestDatabase.logger,
            cipher: TestDataKeys.cipher,
            photos: photos(FilesystemPhotoStore(root: photoRoot)))
        api = try FamilyAPI(context: context)
        let familyServer = try Self.serve(
            api,
            keys: try IdentitySigningKeys(target: identityTarget, logger: FamilyTestDatabase.logger))
        servers = [identityServer, familyServer]
        familyTarget = "127.0.0.1:\(familyServer.server.port)"
        identity = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: identityTarget))
        family = Kindred_Family_V1_FamilyService.Client(try RPCClient(target: familyTarget))
    }

    /// Runs `body` with a stack on a fresh database, then stops it whatever happened. `photos` makes the
    /// gallery's store from the stack's own, for a test that stands a double in front of it.
    static func with(
        clock: TestClock = TestClock(at: Date()),
        photos: (FilesystemPhotoStore) -> any PhotoObjectStore = { $0 },
        _ body: (FamilyTestStack) async throws -> Void
    ) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let stack = try await FamilyTestStack(pool, clock: clock, photos: photos)
            do {
                try await body(stack)
            } catch {
                await stack.stop()
                throw error
            }
            await stack.stop()
        }
    }

    private func stop() async {
        await api.closeStreams()
        await identityEvents.close()
        for (server, _) in servers.reversed() {
            server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        }
        for (_, runner) in servers { _ = try? await runner.value }
        try? FileManager.default.removeItem(atPath: photoRoot)
    }

    /// Identity's service secret, which seals its signing keys: tests that craft tokens open the real key with it.
    static let identitySecret = ServiceSecret.generate()

    /// The real identity API at the cheapest Argon2id cost, knowing family and social as service clients.
    private static func identityAPI(_ pool: PostgresPool) async throws -> (IdentityAPI, EventFeed) {
        let passwords = PasswordHasher(cost: .testsOnly, concurrency: 2)
        let clients = try ClientRegistry(
            parsing: """
                family service \(try await passwords.hash(familySecret)) device_modes
                social service \(try await passwords.hash(socialSecret))
                gamification service \(try await passwords.hash(gamificationSecret))
                """)
        let settings = IdentitySettings(
            secret: identitySecret, clients: clients,
            mail: IdentityMail(links: LinkBase("https://kindred.test/app")!, cipher: TestDataKeys.cipher))
        let credentials = try await Credentials.start(
            database: pool, passwords: passwords, settings: settings, logger: FamilyTestDatabase.logger)
        let accounts = Accounts(
            database: pool, passwords: passwords, lockout: credentials.signIn.lockout, clock: .system,
            mail: settings.mail, birthDates: BirthDates(cipher: TestDataKeys.cipher),
            logger: FamilyTestDatabase.logger)
        let events = try EventFeed(
            outbox: accounts.events, cipher: TestDataKeys.cipher, pool: pool,
            logger: FamilyTestDatabase.logger)
        return (IdentityAPI(credentials: credentials, accounts: accounts, events: events), events)
    }

    private static func serve(
        _ service: some RPCService, keys: some SigningKeySource
    ) throws -> (server: RPCServer, runner: Task<Void, any Error>) {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = TokenAuthenticator(keySource: keys)
        var logger = Logger(label: "family-stack-tests")
        logger.logLevel = .critical
        let server = try RPCServer.bind(configuration: configuration, services: [service], logger: logger)
        return (server, Task { try await server.run() })
    }
}
#endif
