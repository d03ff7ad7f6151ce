public import KindredAuth

extension Caller {
    /// The caller's user id when the caller is a person with an account: a service's token, or an operator's
    /// from client_credentials, names a client instead, which no service's tables hold.
    public var accountUserID: UserID? {
        role != .service ? UserID(userID) : nil
    }

    /// 13–17, by the token's age band.
    public var isMinor: Bool { ageBand != .adult }
}
