import KindredAPI
import KindredAuth
import KindredHandlers
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
            try FieldViolations.require(["username": request.username, "password": request.password])
            issued = try await credentials.passwordGrant(
                identifier: request.username, password: request.password)
        case "refresh_token":
            try FieldViolations.require(["refresh_token": request.refreshToken])
            issued = try await credentials.refreshGrant(OpaqueToken(text: request.refreshToken))
        case "client_credentials":
            try FieldViolations.require([
                "client_id": request.clientID, "client_secret": request.clientSecret,
            ])
            issued = try await credentials.clientGrant(id: request.clientID, secret: request.clientSecret)
        default:
            throw FieldViolations.single(
                "grant_type", "must be password, refresh_token or client_credentials")
        }
        return issued.response
    }

    func revokeToken(
        _ request: Kindred_Identity_V1_RevokeTokenRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_RevokeTokenResponse {
        try FieldViolations.require(["refresh_token": request.refreshToken])
        // The same answer whether or not the token was live (RFC 7009 §2.2): revoking reveals nothing.
        try await credentials.refreshTokens.revokeChain(of: OpaqueToken(text: request.refreshToken))
        return Kindred_Identity_V1_RevokeTokenResponse()
    }

    func signOutEverywhere(
        _ request: Kindred_Identity_V1_SignOutEverywhereRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_SignOutEverywhereResponse {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        // An operator client (role admin, its client id as sub) holds no refresh tokens.
        guard let accountID = caller.accountUserID else { return .init(revokedRefreshTokens: 0) }
        let revoked = try await credentials.signOutEverywhere(accountID)
        return Kindred_Identity_V1_SignOutEverywhereResponse(revokedRefreshTokens: Int32(clamping: revoked))
    }
}

extension IssuedTokens {
    /// The answer of `Token` and `IssueDeviceModeTokens`.
    var response: Kindred_Identity_V1_TokenResponse {
        Kindred_Identity_V1_TokenResponse(
            accessToken: accessToken, tokenType: "Bearer", expiresIn: expiresIn,
            refreshToken: refreshToken?.text ?? "", scope: mode.scope.rawValue,
            sessionEndsAt: mode.sessionEndsAt)
    }
}
