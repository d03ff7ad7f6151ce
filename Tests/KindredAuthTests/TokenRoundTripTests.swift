@testable import KindredAuth
import Testing

@Suite struct TokenRoundTripTests {
    // Made by PyJWT 2.15.1 + cryptography 50.0.2 from `Fixture.seed` and `Fixture.claims()`:
    // jwt.encode(claims, Ed25519PrivateKey.from_private_bytes(seed), algorithm="EdDSA", headers={"kid": kid}),
    // the kid being base64url(blake2b(public_key, digest_size=32)[:12]).
    static let pythonPublicKeyHex = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    static let pythonKeyID = "nSTi7q8nwqCIpWSj"
    static let pythonToken =
        "eyJhbGciOiJFZERTQSIsImtpZCI6Im5TVGk3cThud3FDSXBXU2oiLCJ0eXAiOiJKV1QifQ"
        + ".eyJzdWIiOiIwMTkyZjVlMC03YzFhLTdiM2UtOGYwMC0wMDAwMDAwMDAwMDEiLCJyb2xlIjoidXNlciIsImFnZV9iYW5kIjoiMTMtMT"
        + "UiLCJwYyI6dHJ1ZSwic2NvcGUiOiJjaGlsZF9yZWFkb25seSIsImlhdCI6MTc5MDAwMDAwMCwiZXhwIjoxNzkwMDAwOTAwLCJqdGkiOi"
        + "IwMTkyZjVlMC03YzFhLTdiM2UtOGYwMC0wMDAwMDAwMDAwYWEifQ"
        + ".foubOTDFwFRBZ_jWtdaMBH1eJbXwIf_yHgeXgJ55dag6nB3jWL3wJCKteN0enFEuOeJkYmpAgBsvcu_Xxpo2BQ"

    @Test func aSignedTokenVerifiesToTheCallerItsClaimsName() throws {
        let key = SigningKey()
        let clock = ManualClock()
        let verifier = TokenVerifier(keys: [key.verificationKey], clock: clock.tokenClock)
        let claims = TokenClaims(
            subject: "0192f5e0-0000-7000-8000-00000000beef", role: .admin, ageBand: .adult,
            parentalControls: false,
            scope: .full, issuedAt: clock.now, expiresAt: clock.now + 900, tokenID: "jti-1")
        let caller = try verifier.verify(TokenSigner(key: key).sign(claims))
        #expect(caller.principal == .account(UUIDText.parse("0192f5e0-0000-7000-8000-00000000beef")!))
        #expect(caller.role == .admin)
        #expect(caller.ageBand == .adult)
        #expect(caller.parentalControls == false)
        #expect(caller.scope == .full)
        #expect(caller.tokenID == "jti-1")
        #expect(caller.expiresAt == clock.now + 900)
    }

    @Test(arguments: TokenClaims.Role.allCases, TokenClaims.AgeBand.allCases)
    func everyRoleAndAgeBandSurvivesTheRoundTrip(role: TokenClaims.Role, ageBand: TokenClaims.AgeBand) throws
    {
        var claims = Fixture.claims()
        claims.role = role
        claims.ageBand = ageBand
        let token = TokenSigner(key: Fixture.key()).sign(claims)
        let caller = try TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
            .verify(token)
        #expect(caller.role == role)
        #expect(caller.ageBand == ageBand)
        #expect(caller.scope == .childReadOnly)
    }

    @Test func theGuardianPinClaimSurvivesTheRoundTripAndIsAbsentOtherwise() throws {
        var claims = Fixture.claims()
        let verifier = TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
        #expect(try verifier.verify(TokenSigner(key: Fixture.key()).sign(claims)).guardianPinMinor == nil)
        claims.guardianPinMinor = claims.subject
        let caller = try verifier.verify(TokenSigner(key: Fixture.key()).sign(claims))
        #expect(caller.guardianPinMinor == Fixture.account)
    }

    @Test(arguments: [
        (
            TokenClaims.Role.user, "0192F5E0-7C1A-7B3E-8F00-000000000001",
            Caller.Principal.account(Fixture.account)
        ),
        (.admin, "0192f5e0-7c1a-7b3e-8f00-000000000001", .account(Fixture.account)),
        (.service, "0192f5e0-7c1a-7b3e-8f00-000000000001", .client("0192f5e0-7c1a-7b3e-8f00-000000000001")),
        (.service, "social", .client("social")), (.admin, "ops-console", .client("ops-console")),
        (.user, "user-1", .client("user-1")),
    ])
    func theSubjectNamesAnAccountOnlyWhenItIsAUserIDOfAPerson(
        role: TokenClaims.Role, subject: String, principal: Caller.Principal
    ) throws {
        var claims = Fixture.claims(subject: subject)
        claims.role = role
        let caller = try TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
            .verify(TokenSigner(key: Fixture.key()).sign(claims))
        #expect(caller.principal == principal)
        #expect(caller.clientID == (principal == .account(Fixture.account) ? nil : subject))
    }

    @Test func aGuardianPinClaimThatIsNoUserIDNamesNoMinor() throws {
        var claims = Fixture.claims()
        claims.guardianPinMinor = "mia"
        let verifier = TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
        #expect(try verifier.verify(TokenSigner(key: Fixture.key()).sign(claims)).guardianPinMinor == nil)
    }

    @Test func theKeyIDAndPublicKeyMatchAnIndependentImplementation() {
        let key = Fixture.key().verificationKey
        #expect(key.keyID == Self.pythonKeyID)
        #expect(key.publicKey == hexBytes(Self.pythonPublicKeyHex))
    }

    @Test func aTokenIssuedHereIsByteForByteWhatPyJWTIssues() {
        #expect(TokenSigner(key: Fixture.key()).sign(Fixture.claims()) == Self.pythonToken)
    }

    @Test func aTokenPyJWTIssuedVerifiesHere() throws {
        let publicKey = try VerificationKey(publicKey: hexBytes(Self.pythonPublicKeyHex))
        let caller = try TokenVerifier(keys: [publicKey], clock: ManualClock().tokenClock).verify(
            Self.pythonToken)
        #expect(caller.principal == .account(Fixture.account))
        #expect(caller.ageBand == .thirteenToFifteen)
        #expect(caller.parentalControls)
        #expect(caller.scope == .childReadOnly)
    }

    @Test func aKeyRecreatedFromItsSeedSignsTheSameTokens() throws {
        let original = SigningKey()
        let seed = original.withSeed { Array($0) }
        let restored = try SigningKey(seed: seed)
        #expect(restored.keyID == original.keyID)
        #expect(
            TokenSigner(key: restored).sign(Fixture.claims())
                == TokenSigner(key: original).sign(Fixture.claims()))
        #expect(SigningKey().keyID != original.keyID)
    }

    @Test func keyMaterialOfTheWrongLengthIsRefused() {
        #expect(throws: KeyMaterialError(expectedByteCount: 32, actualByteCount: 31)) {
            try SigningKey(seed: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: KeyMaterialError(expectedByteCount: 32, actualByteCount: 64)) {
            try VerificationKey(publicKey: [UInt8](repeating: 1, count: 64))
        }
    }

    @Test func theSystemClockReadsUnixSeconds() {
        let now = TokenClock.system.now
        #expect(now > 1_790_000_000 && now < 4_102_444_800)
    }

    private func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
        }
    }
}
