@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Token: the client_credentials grant")
struct ClientCredentialsTests {
    static let familySecret = "f4mily-secret-f4mily-secret-f4mily-secret"
    static let opsSecret = "0ps-secret-0ps-secret-0ps-secret-0ps"

    static func registry() async throws -> ClientRegistry {
        let hasher = PasswordHasher(cost: .testsOnly, concurrency: 1)
        return try ClientRegistry(
            parsing: """
                # client id   role      hash
                family        service   \(try await hasher.hash(familySecret))

                ops-console   admin     \(try await hasher.hash(opsSecret))   # the operators' tool
                """)
    }

    @Test(arguments: [("family", familySecret, TokenClaims.Role.service), ("ops-console", opsSecret, .admin)])
    func aConfiguredClientGetsAnAccessTokenAndNoRefreshToken(
        id: String, secret: String, role: TokenClaims.Role
    ) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool, clients: try await Self.registry())
            let issued = try await fixture.credentials.clientGrant(id: id, secret: secret)
            #expect(issued.refreshToken == nil)
            let caller = try await fixture.claims(of: issued.accessToken)
            #expect(caller.clientID == id && caller.accountUserID == nil)
            #expect(caller.role == role)
            #expect(caller.ageBand == .adult)
            #expect(caller.parentalControls == false)
        }
    }

    @Test func aWrongSecretAndAnUnknownClientGetTheSameAnswer() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool, clients: try await Self.registry())
            let wrong = await rpcError {
                try await fixture.credentials.clientGrant(id: "family", secret: Self.opsSecret)
            }
            let unknown = await rpcError {
                try await fixture.credentials.clientGrant(id: "social", secret: Self.opsSecret)
            }
            #expect(wrong?.code == .unauthenticated)
            #expect(wrong?.reason == "INVALID_CLIENT")
            #expect(wrong == unknown)
        }
    }

    @Test(arguments: [
        ("family service", 1, "want: client-id role hash [permission,...]"),
        ("family service $argon2id$x device_modes extra", 1, "want: client-id role hash [permission,...]"),
        ("family service $argon2id$x device_modes,fly", 1, "unknown permission fly (known: device_modes)"),
        ("Family service $argon2id$x", 1, "a client id is 1-64 of a-z, 0-9, '-' and '_'"),
        ("\n\nfamily user $argon2id$x", 3, "the role is service or admin"),
        ("family service plaintext", 1, "the hash is an Argon2id PHC string ($argon2id$...)"),
        ("family service $argon2id$x\nfamily admin $argon2id$y", 2, "family is listed twice"),
    ])
    func aBadClientsFileNamesTheLineAndTheProblem(text: String, line: Int, problem: String) {
        #expect(throws: ClientFileError(line: line, problem)) { try ClientRegistry(parsing: text) }
    }

    @Test func aClientIsAllowedOnlyThePermissionsItsLineLists() throws {
        let registry = try ClientRegistry(
            parsing: """
                family   service   $argon2id$x   device_modes
                social   service   $argon2id$y
                """)
        #expect(registry.clients["family"]?.permissions == [.deviceModes])
        #expect(registry.clients["social"]?.permissions == [])
        #expect(registry.allows(TestCallers.service, .deviceModes))
        #expect(!registry.allows(TestCallers.caller("social", role: .service), .deviceModes))
    }

    @Test func anEmptyFileOrNoFileMeansNoClients() async throws {
        #expect(try ClientRegistry(parsing: "# nobody yet\n\n").clients.isEmpty)
        #expect(
            try IdentitySettings(environment: [
                "KINDRED_IDENTITY_SECRET_KEY": ServiceSecretFixture.base64,
                "KINDRED_DATA_KEYS": TestDataKeys.text,
            ]).clients.clients.isEmpty)
    }

    @Test(arguments: [
        ([:], "no KINDRED_IDENTITY_SECRET_KEY"),
        (["KINDRED_IDENTITY_SECRET_KEY": "c2hvcnQ="], "KINDRED_IDENTITY_SECRET_KEY: the secret must be"),
        (
            [
                "KINDRED_IDENTITY_SECRET_KEY": ServiceSecretFixture.base64,
                "KINDRED_IDENTITY_CLIENTS_FILE": "/nonexistent",
            ],
            "KINDRED_IDENTITY_CLIENTS_FILE: cannot read /nonexistent"
        ),
        (
            [
                "KINDRED_IDENTITY_SECRET_KEY": ServiceSecretFixture.base64,
                "KINDRED_IDENTITY_LINK_BASE": "kindred.example/app",
            ],
            "KINDRED_IDENTITY_LINK_BASE: \"kindred.example/app\" is not an http:// or https:// URL"
        ),
    ])
    func unusableSettingsAreOneLineNamingTheVariable(environment: [String: String], start: String) {
        do {
            _ = try IdentitySettings(environment: environment)
            Issue.record("accepted \(environment)")
        } catch {
            #expect(error.description.hasPrefix(start))
            #expect(!error.description.contains("\n"))
        }
    }
}

enum ServiceSecretFixture {
    static let base64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
}
