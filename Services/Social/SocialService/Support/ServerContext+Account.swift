import KindredHandlers
import KindredRPC

extension ServerContext {
    /// The calling user's id; ACCOUNT_REQUIRED for a service, whose token names no user.
    func account() throws -> UserID {
        guard let me = try authenticatedCaller().accountUserID else { throw SocialError.accountRequired }
        return me
    }
}
