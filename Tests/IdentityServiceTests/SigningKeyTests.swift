@testable import IdentityService
import KindredAuth
import KindredPostgres
import KindredTestSupport
import Testing

@Suite("Signing keys: storage, rotation, GetSigningKeys")
struct SigningKeyTests {
    static func signerKeyID(_ fixture: SignInFixture) async -> String {
        await fixture.credentials.issuer.keys.signer().key.keyID
    }

    static func count(_ fixture: SignInFixture, _ query: PostgresQuery) async throws -> Int {
        try await fixture.sql(query)[0].decode(Int.self, column: 0)
    }

    @Test func instancesStartingTogetherOnAFreshDatabaseMakeOneKey() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let secret = ServiceSecret.generate()
            let fixtures = try await withThrowingTaskGroup(of: SignInFixture.self) { group in
                for _ in 0..<4 { group.addTask { try await SignInFixture(pool, secret: secret) } }
                return try await group.reduce(into: [SignInFixture]()) { $0.append($1) }
            }
            #expect(try await Self.count(fixtures[0], "SELECT count(*) FROM identity.signing_keys") == 1)
            var keyIDs: Set<String> = []
            for fixture in fixtures { keyIDs.insert(await Self.signerKeyID(fixture)) }
            #expect(keyIDs.count == 1)
        }
    }

    @Test func theSeedIsStoredSealedAndOpensOnlyWithTheSameSecret() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let rows = try await fixture.sql("SELECT kid, public_key, sealed_seed FROM identity.signing_keys")
            let (kid, publicKey, sealed) = try rows[0].decode((String, [UInt8], [UInt8]).self)
            #expect(kid == (await Self.signerKeyID(fixture)))
            #expect(try VerificationKey(publicKey: publicKey).keyID == kid)
            #expect(sealed.count == 24 + 32 + 16)
            _ = try fixture.secret.openSigningKey(sealed, keyID: kid)
            await #expect {
                _ = try await SignInFixture(pool, secret: .generate())
            } throws: { error in
                "\(error)".contains("does not open with KINDRED_IDENTITY_SECRET_KEY")
            }
        }
    }

    @Test func aRotationMakesANewSignerWhileTheOldKeyKeepsVerifying() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let before = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            let old = await Self.signerKeyID(fixture)
            let new = try await fixture.credentials.signingKeys.rotate()
            let published = try await fixture.credentials.signingKeys.publishedKeys()
            #expect(published.map(\.verificationKey.keyID) == [new.keyID, old])
            #expect(
                try TokenVerifier(keys: try await fixture.credentials.signingKeys.verificationKeys())
                    .verify(before.accessToken).clientID == nil)
            #expect(throws: TokenVerificationError.unknownKeyID) {
                try TokenVerifier(keys: [new]).verify(before.accessToken)
            }
        }
    }

    @Test func aRunningInstancePicksUpARotationMadeElsewhere() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let old = await Self.signerKeyID(fixture)
            // What `kindred-identity keys rotate` does, from another process: a store of its own.
            let new = try await SigningKeyStore(database: pool, secret: fixture.secret).rotate()
            try await eventually("the running instance signs with the new key") {
                await Self.signerKeyID(fixture) != old
            }
            #expect(await Self.signerKeyID(fixture) == new.keyID)
            try await fixture.account("mia_r")
            let issued = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            #expect(try TokenVerifier(keys: [new]).verify(issued.accessToken).clientID == nil)
        }
    }

    @Test func aKeySupersededLongerThanATokenLivesIsRetiredThenDeleted() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let old = await Self.signerKeyID(fixture)
            let middle = try await fixture.credentials.signingKeys.rotate()
            _ = try await fixture.sql(
                """
                UPDATE identity.signing_keys SET superseded_at = now() - interval '21 minutes' WHERE kid = \(old)
                """)
            #expect(
                try await fixture.credentials.signingKeys.publishedKeys().map(\.verificationKey.keyID) == [
                    middle.keyID
                ])
            #expect(try await fixture.credentials.signingKeys.verificationKeys() == [middle])
            let newest = try await fixture.credentials.signingKeys.rotate()
            let kids = try await fixture.sql("SELECT kid FROM identity.signing_keys ORDER BY created_at")
            #expect(try kids.map { try $0.decode(String.self, column: 0) } == [middle.keyID, newest.keyID])
        }
    }

    @Test func concurrentRotationsLeaveExactlyOneSigner() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await withThrowingTaskGroup(of: VerificationKey.self) { group in
                for _ in 0..<3 { group.addTask { try await fixture.credentials.signingKeys.rotate() } }
                try await group.waitForAll()
            }
            #expect(try await Self.count(fixture, "SELECT count(*) FROM identity.signing_keys") == 4)
            #expect(
                try await Self.count(
                    fixture, "SELECT count(*) FROM identity.signing_keys WHERE superseded_at IS NULL") == 1)
        }
    }
}
