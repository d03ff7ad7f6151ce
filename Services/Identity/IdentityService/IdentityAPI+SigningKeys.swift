import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetSigningKeys`: read from the table on every call, so a verifier that meets a new `kid` right after a
/// rotation finds it here whichever instance it asks.
extension IdentityAPI {
    func getSigningKeys(
        _ request: Kindred_Identity_V1_GetSigningKeysRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_GetSigningKeysResponse {
        let keys = try await credentials.signingKeys.publishedKeys()
        return Kindred_Identity_V1_GetSigningKeysResponse(
            keys: keys.map { key in
                Kindred_Identity_V1_SigningKey(
                    kid: key.verificationKey.keyID, alg: "EdDSA", publicKey: key.verificationKey.publicKey,
                    createdAt: key.createdAt)
            })
    }
}
