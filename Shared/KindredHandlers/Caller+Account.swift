public import KindredAuth

extension Caller {
    /// The caller's user id when the caller is a person with an account: a service's token, or an operator's
    /// from client_credentials, names a client instead, which no service's tables hold.
    public var accountUserID: UserID? {
        guard case .account(let uuid) = principal else { return nil }
        return UserID(uuid)
    }

    /// The minor whose guardian PIN put the caller's device in parent mode (`guardian_pin`); nil otherwise.
    public var guardianPinMinorID: UserID? { guardianPinMinor.map(UserID.init) }

    /// 13–17, by the token's age band.
    public var isMinor: Bool { ageBand != .adult }
}
