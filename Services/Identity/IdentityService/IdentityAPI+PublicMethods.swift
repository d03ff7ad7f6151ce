import KindredAPI
import KindredRPC

extension IdentityAPI {
    private typealias Method = Kindred_Identity_V1_IdentityService.Method

    /// What callers reach without an access token, as the proto marks them "Public": signing up, proving an
    /// email or a reset, getting tokens, and the keys that verify them. Everything else needs a valid token.
    var publicMethods: MethodSet {
        [
            Method.registerAccount, Method.verifyEmail, Method.resendVerification, Method.token,
            Method.revokeToken,
            Method.getSigningKeys, Method.requestPasswordReset, Method.resetPassword,
            Method.confirmDateOfBirthChange,
        ]
    }
}
