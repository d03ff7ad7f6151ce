import KindredAuth
import KindredHandlers
import KindredPostgres

extension GuardianPins {
    /// Sets `new`'s PIN of its minor for `caller`, a guardian: the first PIN freely, a new one only with a
    /// guardian session of theirs; never while a reset is pending. A change clears any lockout.
    func set(_ new: NewGuardianPin, caller: Caller) async throws {
        let (minorID, pin, session) = (new.minorID, new.pin, new.session)
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
