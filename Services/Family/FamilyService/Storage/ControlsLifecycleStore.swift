import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL for the birth and end of a minor's `family.parental_controls` row, as identity's events and the
/// guardian rules need it. Reading and changing the toggles is the parental controls part's.
enum ControlsLifecycleStore {
    /// Makes `minor`'s controls, active with every restriction on, unless they exist already.
    static func createForMinor(_ minor: UserID, now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            INSERT INTO family.parental_controls (minor_id, active, messaging_followed_only,
                public_events_restricted, event_join_approval_required, content_filtering, updated_at)
            VALUES (\(minor)::uuid, true, true, true, true, true, \(now))
            ON CONFLICT (minor_id) DO NOTHING
            """)
    }

    /// Locks `minor`'s controls row until the transaction ends, making it first if there is none (the minor's
    /// `user.registered` not yet handled), so that changes to one minor's guardians take turns on every
    /// instance. Whether the controls are active: false once the minor came of age.
    static func lockMinor(_ minor: UserID, now: Date, in tx: PostgresTransaction) async throws -> Bool {
        try await createForMinor(minor, now: now, in: tx)
        let rows = try await tx.query(
            "SELECT active FROM family.parental_controls WHERE minor_id = \(minor)::uuid FOR UPDATE")
        return try rows[0].decode(Bool.self, column: 0)
    }

    /// Switches `user`'s controls off, if they have any.
    static func switchOff(_ user: UserID, now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE family.parental_controls SET active = false, updated_at = \(now)
            WHERE minor_id = \(user)::uuid AND active
            """)
    }

    /// Deletes `user`'s controls.
    static func delete(_ user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM family.parental_controls WHERE minor_id = \(user)::uuid")
    }
}
