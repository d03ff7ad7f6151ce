import KindredHandlers
import KindredMessages
import KindredRPC

extension IdentityDirectory {
    /// The owner's view of `userID`'s account; nil when identity has no such account (deleted). Any other
    /// failure is thrown: the work asking retries later.
    func knownAccount(_ userID: UserID) async throws(RPCError) -> Kindred_Identity_V1_Account? {
        do {
            return try await account(userID)
        } catch let error where error.code == .notFound {
            return nil
        }
    }
}
