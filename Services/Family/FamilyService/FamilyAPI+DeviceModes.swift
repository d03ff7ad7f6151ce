import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `EnterChildMode` and `EnterParentMode`: a family device's modes, for the account signed in on it. Identity
/// issues the tokens (`IdentityDirectory.deviceModeTokens`); family decides who may switch, and with what
/// proof. Child mode needs none. Parent mode needs a fresh one, each time: the account password, which
/// identity checks on its sign-in lockout, or a guardian PIN, which family checks on the PIN's lockout (its
/// tokens then carry the minor in `guardian_pin`, so that minor's device may act as their guardian). The
/// shared RPC layer does the rest: a child-mode token reaches only reads, and `EnterParentMode`
/// (`childModeMethods`).
extension FamilyAPI {
    func enterChildMode(_ request: Kindred_Family_V1_EnterChildModeRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_EnterChildModeResponse
    {
        let caller = try Self.accountHolder(context)
        return Kindred_Family_V1_EnterChildModeResponse(
            tokens: try await self.context.identity.deviceModeTokens(for: try caller.account(), mode: .child))
    }

    func enterParentMode(_ request: Kindred_Family_V1_EnterParentModeRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_EnterParentModeResponse
    {
        let caller = try Self.accountHolder(context)
        let password: String
        var pinMinor: UserID?
        switch request.proof {
        case .password(let typed):
            // Identity takes an empty password for family's word that it checked a PIN: refuse it here.
            try FieldViolations.require(["password": typed])
            password = typed
        case .guardianPin(let proof):
            let attempt = try PinAttempt(proof)
            try await pins.checkProof(attempt, caller: caller)
            password = ""
            pinMinor = attempt.minorID
        case nil:
            throw FieldViolations.single("proof", "is required: a guardian_pin or the password")
        }
        return Kindred_Family_V1_EnterParentModeResponse(
            tokens: try await self.context.identity.deviceModeTokens(
                for: try caller.account(), mode: .parent, password: password, guardianPinOf: pinMinor))
    }

    /// The caller, if a user's account: services and operator clients have no device to switch.
    private static func accountHolder(_ context: ServerContext) throws(RPCError) -> Caller {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        _ = try caller.account()
        return caller
    }
}
