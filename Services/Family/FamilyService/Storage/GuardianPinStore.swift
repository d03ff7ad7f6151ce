import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_pins`: each minor's PIN hash (sealed, `GuardianPinSecrets`) and its lockout,
/// read under the row's lock.
enum GuardianPinStore {
    /// A minor's PIN row, locked until the end of the transaction that read it.
    struct LockedPin: Sendable {
        let hash: StoredText
        let failedAttempts: Int
        let lockedUntil: Date?
    }

    /// Reads and locks (`FOR UPDATE`) the PIN row of `minorID`; nil when no PIN is set. Concurrent attempts
    /// on any instance wait here for each other, so each sees the count the one before it left.
    static func lock(_ minorID: UserID, on tx: PostgresTransaction) async throws -> LockedPin? {
        let rows = try await tx.query(
            """
            SELECT pin_hash, pin_hash_sealed, failed_attempts, locked_until FROM family.guardian_pins
            WHERE minor_id = \(minorID)::uuid FOR UPDATE
            """)
        guard let row = rows.first else { return nil }
        let (plain, sealed, failures, lockedUntil) = try row.decode((String?, [UInt8]?, Int, Date?).self)
        return LockedPin(
            hash: StoredText(plain: plain, sealed: sealed), failedAttempts: failures,
            lockedUntil: lockedUntil)
    }

    /// Stores the count of wrong attempts in a row and the lock, if any.
    static func recordFailures(
        _ minorID: UserID, count: Int, lockedUntil: Date?, on tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.guardian_pins SET failed_attempts = \(count), locked_until = \(lockedUntil)
            WHERE minor_id = \(minorID)::uuid
            """)
    }

    /// Stores the first PIN of `minorID` (its hash, sealed); false when another guardian set one first.
    static func insert(_ minorID: UserID, hash: [UInt8], now: Date, on tx: PostgresTransaction) async throws
        -> Bool
    {
        try await tx.query(
            """
            INSERT INTO family.guardian_pins (minor_id, pin_hash_sealed, updated_at)
            VALUES (\(minorID)::uuid, \(hash)::bytea, \(now))
            ON CONFLICT (minor_id) DO NOTHING
            """
        ).affectedRows == 1
    }

    /// Replaces the PIN of `minorID` (or sets it; its hash, sealed) and ends any lockout.
    static func replace(_ minorID: UserID, hash: [UInt8], now: Date, on tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            INSERT INTO family.guardian_pins (minor_id, pin_hash_sealed, updated_at)
            VALUES (\(minorID)::uuid, \(hash)::bytea, \(now))
            ON CONFLICT (minor_id) DO UPDATE SET
                pin_hash = NULL, pin_hash_sealed = excluded.pin_hash_sealed, failed_attempts = 0, locked_until = NULL,
                updated_at = excluded.updated_at
            """)
    }

    /// Up to `limit` PIN hashes of minors after `after` (nil: from the first), by minor: what `keys
    /// rotate-data` walks.
    static func hashes(after: UserID?, limit: Int, on db: some StatementRunner) async throws
        -> [(UserID, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT minor_id::text, pin_hash, pin_hash_sealed FROM family.guardian_pins
            WHERE minor_id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY minor_id LIMIT \(limit)
            """
        ).map { row in
            let (minorID, plain, sealed) = try row.decode((UserID, String?, [UInt8]?).self)
            return (minorID, StoredText(plain: plain, sealed: sealed))
        }
    }

    /// Replaces the PIN hash of `minorID` with `sealed`, unless it changed since it was read as `was`.
    static func reseal(_ minorID: UserID, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            UPDATE family.guardian_pins SET pin_hash = NULL, pin_hash_sealed = \(sealed)::bytea
            WHERE minor_id = \(minorID)::uuid AND pin_hash IS NOT DISTINCT FROM \(was.plain)
                AND pin_hash_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
