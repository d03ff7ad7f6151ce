import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of `family.push_devices` (and of dropping a device's queued messages in `family.push_outbox`,
/// which `NotificationInbox.post` fills).
enum PushDeviceStore {
    /// Registers `token` for `user`: a new device, the same device updated when it is already theirs, or a
    /// new device when it was another user's (whose device and queued messages go). Nil when the token's row
    /// vanished between the two steps (unregistered concurrently): the caller may retry.
    static func register(
        token: String, for user: UserID, platform: Kindred_Family_V1_PushPlatform, pushEnabled: Bool,
        at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Kindred_Family_V1_PushDevice? {
        if let inserted = try await insert(
            token: token, for: user, platform: platform, pushEnabled: pushEnabled, at: now, in: tx)
        {
            return inserted
        }
        let rows = try await tx.query(
            "SELECT id::text, user_id::text FROM family.push_devices WHERE device_token = \(token) FOR UPDATE"
        )
        guard let row = rows.first else { return nil }
        let (id, owner) = try row.decode((String, UserID).self)
        guard owner == user else {
            try await tx.query("DELETE FROM family.push_devices WHERE id = \(id)::uuid")
            return try await insert(
                token: token, for: user, platform: platform, pushEnabled: pushEnabled, at: now, in: tx)
        }
        if !pushEnabled {
            try await tx.query("DELETE FROM family.push_outbox WHERE device_id = \(id)::uuid")
        }
        return try await tx.query(
            """
            UPDATE family.push_devices
            SET platform = \(platform.rawValue)::smallint, push_enabled = \(pushEnabled), updated_at = \(now)
            WHERE id = \(id)::uuid
            RETURNING id::text, platform, push_enabled, registered_at
            """
        ).first.map(device)
    }

    /// Forgets `user`'s device `id` and its queued messages; false when they have no such device.
    static func unregister(_ id: PushDeviceID, of user: UserID, on db: PostgresPool) async throws -> Bool {
        try await db.query(
            "DELETE FROM family.push_devices WHERE id = \(id)::uuid AND user_id = \(user)::uuid"
        ).affectedRows > 0
    }

    /// Drops the push messages queued before `instant`, which no provider took, `limit` a statement.
    static func dropMessages(
        queuedBefore instant: Date, batchesOf limit: Int = PostgresPool.sweepBatch, on db: PostgresPool
    ) async throws {
        try await db.deleteInBatches(
            from: "family.push_outbox", where: "created_at < \(instant)", limit: limit)
    }

    /// A new device with `token`; nil when the token is registered already.
    private static func insert(
        token: String, for user: UserID, platform: Kindred_Family_V1_PushPlatform, pushEnabled: Bool,
        at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Kindred_Family_V1_PushDevice? {
        try await tx.query(
            """
            INSERT INTO family.push_devices
                (id, user_id, platform, device_token, push_enabled, registered_at, updated_at)
            VALUES (\(UUIDv7.generate(at: now))::uuid, \(user)::uuid, \(platform.rawValue)::smallint, \(token),
                    \(pushEnabled), \(now), \(now))
            ON CONFLICT (device_token) DO NOTHING
            RETURNING id::text, platform, push_enabled, registered_at
            """
        ).first.map(device)
    }

    private static func device(_ row: PostgresRow) throws -> Kindred_Family_V1_PushDevice {
        let (id, platform, pushEnabled, registeredAt) = try row.decode((String, Int, Bool, Date).self)
        return Kindred_Family_V1_PushDevice(
            deviceID: id, platform: Kindred_Family_V1_PushPlatform(rawValue: Int32(platform)),
            pushEnabled: pushEnabled, registeredAt: registeredAt)
    }
}
