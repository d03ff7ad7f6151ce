import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// Reading and changing parental controls. A read is one statement and asks identity nothing, since every
/// other service asks it on its own hot paths (`MinorControls+Reads.swift`); a guardian needs a session to
/// read the settings as to change them, and a change applies at once, with its `parental_controls.changed`
/// event in the same transaction.
struct MinorControls: Sendable {
    let database: PostgresPool
    /// Family's data keys, which seal the `parental_controls.changed` event.
    let cipher: FieldCipher
    let clock: WallClock

    init(database: PostgresPool, cipher: FieldCipher, clock: WallClock) {
        self.database = database
        self.cipher = cipher
        self.clock = clock
    }

    init(context: FamilyContext) {
        self.init(database: context.database, cipher: context.cipher, clock: context.clock)
    }

    /// Sets the toggles `update` names to their new values, for a guardian with a session of theirs on the
    /// minor; refused while a PIN reset is pending and once the controls are off.
    func update(_ update: ControlsUpdate, caller: Caller) async throws -> Kindred_Family_V1_ParentalControls {
        let minorID = update.minorID
        let now = clock.now
        return try await database.transaction { tx in
            try await MinorAccess.requireGuardian(caller, of: minorID, on: tx)
            guard var controls = try await ParentalControlsStore.lock(minorID, on: tx), controls.active else {
                throw FamilyError.controlsInactive
            }
            if try await GuardianPinResetStore.isPending(minorID, now: now, on: tx) {
                throw FamilyError.pinResetPending
            }
            try await GuardianSessions.require(update.session, on: minorID, by: caller, now: now, in: tx)
            for toggle in update.toggles {
                controls[keyPath: toggle.field] = update.changes[keyPath: toggle.field]
            }
            controls.updatedAt = now
            // A session exists only once a PIN does, and a PIN is never removed; no reset is pending.
            controls.pinSet = true
            try await ParentalControlsStore.write(controls, updatedAt: now, on: tx)
            try await FamilyEvents.append(
                .parentalControlsChanged(Kindred_Family_V1_ParentalControlsChanged(controls: controls)),
                sealedWith: cipher, in: tx)
            return controls
        }
    }
}
