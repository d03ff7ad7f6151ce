import KindredHandlers
import KindredRPC

extension ServerContext {
    /// The calling user's id, lower-cased; ACCOUNT_REQUIRED for a service, whose token names no user.
    func account() throws -> String {
        guard let me = try authenticatedCaller().accountID else { throw SocialError.accountRequired }
        return me
    }
}
