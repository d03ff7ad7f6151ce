import FoundationEssentials
import KindredAPI
import KindredAuth
import KindredMessages
import KindredRPC

/// `Token`, `RevokeToken` and `SignOutEverywhere`: the rules live in `Credentials`; these read the request and
/// shape the answer.
extension IdentityAPI {
    func token(
        _ request: Kindred_Identity_V1_TokenRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_TokenResponse {
        let issued: IssuedTokens
        switch request.grantType {
        case "password":
            try Self.require([("username", request.username), ("password", request.password)])
            issued = try await credentials.passwordGrant(
                identifier: request.username, password: request.password)
        case "refresh_token":
            try Self.require([("refresh_token", request.refreshToken)])
            issued = try await credentials.refreshGrant(OpaqueToken(text: request.refreshToken))
        case "client_credentials":
            try Self.require([("client_id", request.clientID), ("client_secret", request.clientSecret)])
            issued = try await credentials.clientGrant(id: request.clientID, secret: request.clientSecret)
        default:
            throw Self.invalid([("grant_type", "must be password, refresh_token or client_credentials")])
        }
        return Kindred_Identity_V1_TokenResponse(
            accessToken: issued.accessToken, tokenType: "Bearer", expiresIn: issued.expiresIn,
            refreshToken: issued.refreshToken?.text ?? "")
    }

    func revokeToken(
        _ request: Kindred_Identity_V1_RevokeTokenRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_RevokeTokenResponse {
        try Self.require([("refresh_token", request.refreshToken)])
        // The same answer whether or not the token was live (RFC 7009 §2.2): revoking reveals nothing.
        try await credentials.refreshTokens.revokeChain(of: OpaqueToken(text: request.refreshToken))
        return Kindred_Identity_V1_RevokeTokenResponse()
    }

    func signOutEverywhere(
        _ request: Kindred_Identity_V1_SignOutEverywhereRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_SignOutEverywhereResponse {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        // An operator client (role admin, its client id as sub) holds no refresh tokens.
        guard UUID(uuidString: caller.userID) != nil else { return .init(revokedRefreshTokens: 0) }
        let revoked = try await credentials.refreshTokens.revokeAll(of: caller.userID)
        return Kindred_Identity_V1_SignOutEverywhereResponse(revokedRefreshTokens: Int32(clamping: revoked))
    }

    /// Longer than any credential Kindred issues or accepts: refused before any work is spent on it.
    static let longestCredential = 1_024

    /// Refuses, naming every one, fields that are empty or longer than `longestCredential` bytes.
    static func require(_ fields: [(name: String, value: String)]) throws(RPCError) {
        let problems = fields.compactMap { field -> (String, String)? in
            if field.value.isEmpty { return (field.name, "is required") }
            if field.value.utf8.count > longestCredential { return (field.name, "is too long") }
            return nil
        }
        if !problems.isEmpty { throw invalid(problems) }
    }

    /// INVALID_ARGUMENT with a `BadRequest` naming each field and what is wrong with it.
    static func invalid(_ problems: [(field: String, problem: String)]) -> RPCError {
        RPCError(
            .invalidArgument, problems.map { "\($0.field) \($0.problem)" }.joined(separator: "; "),
            details: [
                .badRequest(
                    problems.map { ErrorDetail.FieldViolation(field: $0.field, description: $0.problem) })
            ])
    }
}
