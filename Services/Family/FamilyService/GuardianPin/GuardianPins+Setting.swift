import KindredAuth
import KindredHandlers
import KindredPostgres

extension GuardianPins {
    /// Sets the PIN of `minorID` for `caller`, a guardian: the first PIN freely, a new one only with a
    /// guardian session of theirs; never while a reset is pending. A change clears any lockout.
    func set(minorID: String, pin: String, confirmation: String, session: String, caller: Caller) async throws
    {
        var violations = FieldViolations()
        let parsedMinorID: UserID? = violations.id("minor_user_id", minorID)
        try GuardianPinRules.checkNewPin(pin, confirmation: confirmation, violations: violations)
        let minorID = try violations.throwIfAny(parsedMinorID)
        let now = clock.now
        // Every check runs before the hash, so only a guardian allowed to set the PIN spends Argon2id.
        try await database.transaction { tx in
            try await MinorAccess.requireGuardian(caller, of: minorID, on: tx)
            if try await GuardianPinResetStore.isPending(minorID, now: now, on: tx) {
                throw FamilyError.pinResetPending
            }
            let isSet = try await GuardianPinStore.lock(minorID, on: tx) != nil
            if isSet {
                try await GuardianSessions.require(session, on: minorID, by: caller, now: now, in: tx)
            }
            let hash = secrets.hashes.seal(try await pinHashing { try await hasher.hash(pin) }, of: minorID)
            if isSet {
                try await GuardianPinStore.replace(minorID, hash: hash, now: now, on: tx)
            } else if try await !GuardianPinStore.insert(minorID, hash: hash, now: now, on: tx) {
                // The other guardian set the first PIN meanwhile, and no session can predate a PIN.
                throw FamilyError.sessionRefused(.missing)
            }
        }
    }
}
