import KindredAuth
import KindredRuntime

extension Caller {
    /// The caller's user id when the caller is a person with an account: a service's token, or an operator's
    /// from client_credentials, names a client instead, which no family table holds.
    var accountID: String? {
        role != .service && UUIDv7.isWellFormed(userID) ? userID.lowercased() : nil
    }

    /// 13–17, by the token's age band.
    var isMinor: Bool { ageBand != .adult }
}
