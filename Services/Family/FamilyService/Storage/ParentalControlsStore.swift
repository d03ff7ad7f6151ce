import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRuntime

/// The SQL of `family.parental_controls` as the controls part reads and changes it.
enum ParentalControlsStore {
    /// What a read of a user's controls found: the controls, whether the asker guards the user, and the
    /// session the asker presented on the user (nil: none there).
    struct Read: Sendable {
        let controls: Kindred_Family_V1_ParentalControls
        let askerIsGuardian: Bool
        let session: GuardianSessionStore.Found?
    }

    /// What `GetParentalControls` and `GetParentalControlsStatus` need, in one statement of index probes: the
    /// controls (inactive when the user has no row), whether a PIN is set or a reset pending, whether
    /// `guardianID` guards the user, and the guardian session `session` names on the user.
    static func read(
        _ userID: UserID, asking guardianID: UserID?, session: OpaqueToken?, now: Date, on pool: PostgresPool
    ) async throws -> Read {
        let rows = try await pool.pureRead(
            """
            SELECT c.active, c.messaging_followed_only, c.public_events_restricted, c.event_join_approval_required,
                c.content_filtering, c.updated_at,
                EXISTS (SELECT 1 FROM family.guardian_pins p WHERE p.minor_id = \(userID)::uuid),
                EXISTS (SELECT 1 FROM family.open_pin_resets r WHERE r.minor_id = \(userID)::uuid AND r.expires_at > \(now)),
                EXISTS (SELECT 1 FROM family.guardian_links l
                        WHERE l.minor_id = \(userID)::uuid AND l.guardian_id = \(guardianID)::uuid),
                s.opened_by::text, s.expires_at
            FROM (VALUES (1)) AS one LEFT JOIN family.parental_controls c ON c.minor_id = \(userID)::uuid
                LEFT JOIN family.guardian_sessions s
                    ON s.token_hash = \(session?.storageHash) AND s.minor_id = \(userID)::uuid
            """)
        let row = rows[0]
        var controls = try self.controls(of: userID, from: row)
        controls.pinSet = try row.decode(Bool.self, column: 6)
        controls.pinResetPending = try row.decode(Bool.self, column: 7)
        var session: GuardianSessionStore.Found?
        if let openedBy = try row.decode(UserID?.self, column: 9) {
            session = GuardianSessionStore.Found(
                openedBy: openedBy, expiresAt: try row.decode(Date.self, column: 10))
        }
        return Read(
            controls: controls, askerIsGuardian: try row.decode(Bool.self, column: 8), session: session)
    }

    /// Reads and locks (`FOR UPDATE`) the controls row of `minorID`; nil when there is none (an adult).
    static func lock(_ minorID: UserID, on tx: PostgresTransaction) async throws
        -> Kindred_Family_V1_ParentalControls?
    {
        let rows = try await tx.query(
            """
            SELECT active, messaging_followed_only, public_events_restricted, event_join_approval_required,
                content_filtering, updated_at
            FROM family.parental_controls WHERE minor_id = \(minorID)::uuid FOR UPDATE
            """)
        return try rows.first.map { try controls(of: minorID, from: $0) }
    }

    /// Writes the toggles of `controls` and `updatedAt`.
    static func write(
        _ controls: Kindred_Family_V1_ParentalControls, updatedAt: Date, on tx: PostgresTransaction
    )
        async throws
    {
        try await tx.query(
            """
            UPDATE family.parental_controls SET messaging_followed_only = \(controls.messagingFollowedOnly),
                public_events_restricted = \(controls.publicEventsRestricted),
                event_join_approval_required = \(controls.eventJoinApprovalRequired),
                content_filtering = \(controls.contentFiltering), updated_at = \(updatedAt)
            WHERE minor_id = \(controls.userID)::uuid
            """)
    }

    /// The controls in the first six columns of `row`; all off (inactive) when they are NULL.
    private static func controls(of userID: UserID, from row: PostgresRow) throws
        -> Kindred_Family_V1_ParentalControls
    {
        Kindred_Family_V1_ParentalControls(
            userID: userID.description,
            active: try row.decode(Bool?.self, column: 0) ?? false,
            messagingFollowedOnly: try row.decode(Bool?.self, column: 1) ?? false,
            publicEventsRestricted: try row.decode(Bool?.self, column: 2) ?? false,
            eventJoinApprovalRequired: try row.decode(Bool?.self, column: 3) ?? false,
            contentFiltering: try row.decode(Bool?.self, column: 4) ?? false,
            updatedAt: try row.decode(Date?.self, column: 5))
    }
}
