/// A token whose signature and claims passed every check, with the key that signed it.
struct VerifiedToken {
    let claims: TokenClaims
    let key: VerificationKey
}

extension TokenVerifier {
    /// Longer tokens are refused before any work: Kindred's are about 400 bytes.
    static let maximumTokenLength = 8 * 1024

    /// The full check of a token the cache does not know, cheapest refusals first, the signature before the
    /// claims are read, and the clock last.
    func verifySignatureAndClaims(
        of token: UnsafeRawBufferPointer, now: Int64
    ) -> Result<VerifiedToken, TokenVerificationError> {
        let parts = token.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]),
            let header = JWSHeader(jsonBytes: headerBytes)
        else { return .failure(.malformed) }
        guard header.algorithm == JWSHeader.edDSA else { return .failure(.unsupportedAlgorithm) }
        guard let keyID = header.keyID else { return .failure(.malformed) }
        guard let key = state.withLock({ $0.keys[keyID] }) else { return .failure(.unknownKeyID) }
        guard let signature = Base64URL.decode(parts[2]), signature.count == Sodium.signatureByteCount else {
            return .failure(.malformed)
        }
        signatureCheckObserver?()
        let signingInput = UnsafeRawBufferPointer(rebasing: token[..<parts[1].endIndex])
        guard Sodium.verify(signature: signature, message: signingInput, publicKey: key.publicKey) else {
            return .failure(.badSignature)
        }
        guard let payload = Base64URL.decode(parts[1]), let claims = TokenClaims(jsonBytes: payload) else {
            return .failure(.malformed)
        }
        guard claims.issuedAt <= now + leewaySeconds else { return .failure(.notYetValid) }
        guard now < claims.expiresAt + leewaySeconds else { return .failure(.expired) }
        return .success(VerifiedToken(claims: claims, key: key))
    }
}
