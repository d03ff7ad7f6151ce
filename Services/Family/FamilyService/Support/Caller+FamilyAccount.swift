import KindredAuth
import KindredHandlers
import KindredRPC

extension Caller {
    /// The caller's account id; ACCOUNT_REQUIRED when the token names none (a service's or an operator's
    /// client), which has no inbox, devices or settings of its own.
    func account() throws(RPCError) -> UserID {
        guard let id = accountUserID else { throw FamilyError.accountRequired }
        return id
    }
}
