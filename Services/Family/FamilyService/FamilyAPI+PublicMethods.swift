import KindredAPI
import KindredRPC

extension FamilyAPI {
    private typealias Method = Kindred_Family_V1_FamilyService.Method

    /// What callers reach without an access token, as the proto marks them "Public": redeeming a mailed PIN
    /// reset link, whose token is the credential. Everything else needs a valid token.
    var publicMethods: MethodSet { [Method.resetGuardianPin] }

    /// The way out of child mode: it needs its own fresh proof (a guardian PIN or the password), so the
    /// child-mode token that calls it grants nothing by itself.
    var childModeMethods: MethodSet { [Method.enterParentMode] }
}
