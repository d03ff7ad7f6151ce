@testable import KindredAuth
import Testing

@Suite struct TokenRefusalTests {
    let clock = ManualClock()
    let verifier: TokenVerifier
    let token = TokenSigner(key: Fixture.key()).sign(Fixture.claims())

    init() {
        verifier = TokenVerifier(keys: [Fixture.key().verificationKey], clock: clock.tokenClock)
    }

    private var parts: [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aChangedPayloadBreaksTheSignature() {
        var claims = Fixture.claims()
        claims.scope = .full
        let forged = parts[0] + "." + Base64URL.encode(claims.jsonBytes) + "." + parts[2]
        #expect(throws: TokenVerificationError.badSignature) { try verifier.verify(forged) }
    }

    @Test func aChangedHeaderBreaksTheSignature() {
        let header = #"{"alg":"EdDSA","kid":"\#(Fixture.key().keyID)","typ":"JOSE"}"#
        let forged = Base64URL.encode(Array(header.utf8)) + "." + parts[1] + "." + parts[2]
        #expect(throws: TokenVerificationError.badSignature) { try verifier.verify(forged) }
    }

    @Test(arguments: [0, 31, 63])
    func aChangedSignatureByteIsABadSignature(index: Int) {
        var signature = Base64URL.decode(Array(parts[2].utf8))!
        signature[index] ^= 0x01
        let forged = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
        #expect(throws: TokenVerificationError.badSignature) { try verifier.verify(forged) }
    }

    @Test(arguments: [
        #"{"alg":"none","typ":"JWT"}"#, #"{"alg":"none","kid":"KID"}"#, #"{"alg":"HS256","kid":"KID"}"#,
        #"{"alg":"RS256","kid":"KID"}"#, #"{"alg":"eddsa","kid":"KID"}"#, #"{"alg":"Ed25519","kid":"KID"}"#,
    ])
    func everyAlgorithmButEdDSAIsRefused(header: String) {
        let header = header.replacing("KID", with: Fixture.key().keyID)
        let encodedHeader = Base64URL.encode(Array(header.utf8))
        // `none` carries an empty signature; HS256 the usual confusion attack, an HMAC keyed with the public key.
        for signature in ["", parts[2], Base64URL.encode([UInt8](repeating: 7, count: 32))] {
            let forged = encodedHeader + "." + parts[1] + "." + signature
            #expect(throws: TokenVerificationError.unsupportedAlgorithm) { try verifier.verify(forged) }
        }
    }

    @Test func aTokenFromAnUnknownKeyAsksForAKeyRefresh() {
        let stranger = TokenSigner(key: SigningKey()).sign(Fixture.claims())
        #expect(throws: TokenVerificationError.unknownKeyID) { try verifier.verify(stranger) }
    }

    @Test func aTokenIsAcceptedUntilItsExpiryPlusTheLeeway() throws {
        let expiry = Fixture.claims().expiresAt
        clock.set(expiry + 59)
        _ = try verifier.verify(token)
        let fresh = TokenVerifier(keys: [Fixture.key().verificationKey], clock: clock.tokenClock)
        clock.set(expiry + 60)
        #expect(throws: TokenVerificationError.expired) { try fresh.verify(token) }
        #expect(throws: TokenVerificationError.expired) { try verifier.verify(token) }
    }

    @Test func aTokenIssuedBeyondTheLeewayInTheFutureIsNotYetValid() throws {
        let signer = TokenSigner(key: Fixture.key())
        _ = try verifier.verify(signer.sign(Fixture.claims(issuedAt: clock.now + 60)))
        #expect(throws: TokenVerificationError.notYetValid) {
            try verifier.verify(signer.sign(Fixture.claims(issuedAt: clock.now + 61)))
        }
        #expect(throws: TokenVerificationError.notYetValid) {
            try verifier.verify(signer.sign(Fixture.claims(issuedAt: clock.now + 86_400)))
        }
    }

    @Test func aZeroLeewayAcceptsNoSkew() throws {
        let strict = TokenVerifier(
            keys: [Fixture.key().verificationKey], clock: clock.tokenClock, leeway: .zero)
        clock.set(Fixture.claims().expiresAt - 1)
        _ = try strict.verify(token)
        clock.set(Fixture.claims().expiresAt)
        #expect(throws: TokenVerificationError.expired) { try strict.verify(token) }
    }

    @Test func everyReasonHasADistinctMachineReadableName() {
        let reasons = TokenVerificationError.allCases.map(\.reason)
        #expect(Set(reasons).count == reasons.count)
        #expect(TokenVerificationError.unknownKeyID.reason == "TOKEN_UNKNOWN_KEY_ID")
    }
}
