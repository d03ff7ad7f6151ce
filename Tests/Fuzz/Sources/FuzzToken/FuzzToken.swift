import FuzzFixtures
@testable import KindredAuth

/// The access-token parser and verifier. The first input byte picks what the rest is:
/// 0, a whole token for `TokenVerifier.verify`; 1, a JWS header that the fixture key signs over valid
/// claims; 2, a claims payload that it signs under a valid header. Signing lets the fuzzer past the
/// signature into the header and claims readers, and each answer is checked against what those readers
/// say on their own.
func fuzzToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0: verifyTwice(String(decoding: rest, as: UTF8.self))
    case 1: checkSigned(header: rest, payload: FuzzFixtures.claims.jsonBytes)
    default: checkSigned(header: validHeader, payload: rest)
    }
    return 0
}

private let verifier = FuzzFixtures.verifier()
private let validHeader = Array(
    Base64URL.decode(FuzzFixtures.token.split(separator: ".")[0].utf8)!)

/// Verifies a token twice: the second answer (from the cache when the first succeeded) must be the same.
@discardableResult
private func verifyTwice(_ token: String) -> Result<Caller, TokenVerificationError> {
    let first = Result { () throws(TokenVerificationError) in try verifier.verify(token) }
    let second = Result { () throws(TokenVerificationError) in try verifier.verify(token) }
    precondition(first == second, "a token verified differently the second time")
    return first
}

/// Signs `header.payload` with the fixture key and checks the verifier's answer against the readers'.
private func checkSigned(header: [UInt8], payload: [UInt8]) {
    let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    let signature = FuzzFixtures.signingKey.sign(Array(signingInput.utf8))
    let result = verifyTwice(signingInput + "." + Base64URL.encode(signature))
    let expected: Result<Void, TokenVerificationError>
    if let parsed = JWSHeader(jsonBytes: header) {
        if parsed.algorithm != JWSHeader.edDSA {
            expected = .failure(.unsupportedAlgorithm)
        } else if let keyID = parsed.keyID {
            expected =
                keyID == FuzzFixtures.signingKey.keyID ? claimsVerdict(payload) : .failure(.unknownKeyID)
        } else {
            expected = .failure(.malformed)
        }
    } else {
        expected = .failure(.malformed)
    }
    switch (result, expected) {
    case (.success(let caller), .success):
        let claimed = TokenClaims(jsonBytes: payload).map(Caller.init(claims:))
        precondition(caller == claimed, "the caller is not the one its claims make")
    case (.failure(let error), .failure(let expectedError)):
        precondition(error == expectedError, "refused as \(error), expected \(expectedError)")
    default:
        preconditionFailure("verified as \(result), expected \(expected)")
    }
}

/// What a correctly signed token with this payload must get at the fixture clock.
private func claimsVerdict(_ payload: [UInt8]) -> Result<Void, TokenVerificationError> {
    guard let claims = TokenClaims(jsonBytes: payload) else { return .failure(.malformed) }
    let leeway = TokenVerifier.defaultLeeway.components.seconds
    if claims.issuedAt > FuzzFixtures.now + leeway { return .failure(.notYetValid) }
    if FuzzFixtures.now >= claims.expiresAt + leeway { return .failure(.expired) }
    return .success(())
}
