import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

extension MinorControls {
    /// Whose controls a read's `user_id` asks for: that user, or when it is empty the caller, if a person;
    /// INVALID_ARGUMENT naming `user_id` when it is malformed, or empty from a service or an operator.
    static func owner(named text: String, for caller: Caller) throws(RPCError) -> UserID {
        if text.isEmpty, caller.role == .user, let own = caller.accountUserID { return own }
        return try FieldViolations.id("user_id", text)
    }

    /// The controls of `userID`: the settings. The user themself, services and
    /// admins read them freely; a guardian only with `session`, one they opened on the user, since the PIN
    /// guards the settings and not only changes to them; anyone else gets NOT_FOUND. A user without controls
    /// (an adult) gets inactive ones.
    func get(of userID: UserID, session: String, caller: Caller) async throws
        -> Kindred_Family_V1_ParentalControls
    {
        let now = clock.now
        let (read, privileged) = try await visibleRead(of: userID, session: session, caller: caller, now: now)
        if !privileged {
            guard !session.isEmpty else { throw FamilyError.settingsSessionRequired }
            try GuardianSessions.accept(read.session, by: caller, now: now)
        }
        return read.controls
    }

    /// Whether the controls of `userID` are active, a PIN set and a reset pending, without the toggles: for the
    /// user, their guardians with no session, services and admins; NOT_FOUND for anyone else.
    func status(of userID: UserID, caller: Caller) async throws -> Kindred_Family_V1_ParentalControlsStatus {
        let controls = try await visibleRead(of: userID, session: "", caller: caller, now: clock.now).read
            .controls
        return Kindred_Family_V1_ParentalControlsStatus(
            userID: controls.userID, active: controls.active, pinSet: controls.pinSet,
            pinResetPending: controls.pinResetPending)
    }

    /// The read of `userID`'s controls, refused with NOT_FOUND unless the caller is the user, a service, an
    /// admin (`privileged`: they need no session) or one of the user's guardians.
    private func visibleRead(of userID: UserID, session: String, caller: Caller, now: Date)
        async throws -> (read: ParentalControlsStore.Read, privileged: Bool)
    {
        let privileged = caller.role != .user || caller.accountUserID == userID
        // Only a user asking about someone else needs the guardian and session probes; the same statement
        // answers them, so the read others make on their hot paths stays one statement.
        let read = try await ParentalControlsStore.read(
            userID, asking: privileged ? nil : caller.accountUserID,
            session: privileged ? nil : GuardianSessions.presented(session), now: now, on: database)
        guard privileged || read.askerIsGuardian else { throw FamilyError.userNotFound }
        return (read, privileged)
    }
}
