import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `IssueDeviceModeTokens`: the tokens of a family device's mode, issued on the word of a service allowed
/// `device_modes` (the family service, which decides who may switch a device).
extension Credentials {
    /// Tokens of the requested mode for the requested account, asked for by `caller`:
    ///
    /// - child mode: scope `child_readonly`, from a chain that refreshes to `child_readonly` only;
    /// - parent mode: scope `full`, from a chain that stops refreshing 30 minutes after the proof. The
    ///   proof is the password when one is given, checked like the password given again for a sensitive
    ///   change (counted toward the lockout); without one it is whatever the calling service checked (a
    ///   guardian PIN, whose minor every token of the chain names in `guardian_pin`).
    func deviceModeTokens(
        _ request: Kindred_Identity_V1_IssueDeviceModeTokensRequest, caller: Caller
    ) async throws -> IssuedTokens {
        guard clients.allows(caller, .deviceModes) else { throw IdentityError.deviceModesNotAllowed }
        let (userID, pinMinor) = try Self.validate(request)
        guard let subject = try await AccountStore.tokenSubject(id: userID, on: database) else {
            throw IdentityError.accountNotFound
        }
        guard request.mode == .parent else {
            return try await startChain(of: userID, for: subject, mode: .child)
        }
        if !request.password.isEmpty { try await signIn.confirm(request.password, accountID: userID) }
        return try await startChain(
            of: userID, for: subject, mode: .parent(provenAt: clock.now, guardianPinOf: pinMinor))
    }

    /// The request's user id and the minor of a guardian-PIN proof, once every field is checked.
    private static func validate(_ request: Kindred_Identity_V1_IssueDeviceModeTokensRequest) throws(RPCError)
        -> (UserID, UserID?)
    {
        var violations = FieldViolations()
        let userID = violations.userID(request.userID)
        switch request.mode {
        case .child:
            if !request.password.isEmpty { violations.add("password", "must be empty in child mode") }
        case .parent:
            if request.password.utf8.count > FieldViolations.longestCredential {
                violations.add("password", "is too long")
            }
        case .unspecified, .unrecognized:
            violations.add("mode", "must be DEVICE_MODE_CHILD or DEVICE_MODE_PARENT")
        }
        if request.guardianPinMinorUserID.isEmpty {
            return (try violations.throwIfAny(userID), nil)
        }
        if request.mode != .parent || !request.password.isEmpty {
            violations.add(
                "guardian_pin_minor_user_id", "is for a guardian PIN's parent mode, without a password")
            try violations.throwIfAny()
        }
        let pinMinor: UserID? = violations.id("guardian_pin_minor_user_id", request.guardianPinMinorUserID)
        return try violations.throwIfAny(userID, pinMinor)
    }
}
