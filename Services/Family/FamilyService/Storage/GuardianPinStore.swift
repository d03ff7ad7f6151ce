import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_pins`: each minor's PIN hash and its lockout, read under the row's lock.
enum GuardianPinStore {
    /// A minor's PIN row, locked until the end of the transaction that read it.
    struct LockedPin: Sendable {
        let hash: String
        let failedAttempts: Int
        let lockedUntil: Date?
    }

    /// Reads and locks (`FOR UPDATE`) the PIN row of `minorID`; nil when no PIN is set. Concurrent attempts
    /// on any instance wait here for each other, so each sees the count the one before it left.
    static func lock(_ minorID: UserID, on tx: PostgresTransaction) async throws -> LockedPin? {
        let rows = try await tx.query(
            """
            SELECT pin_hash, failed_attempts, locked_until FROM family.guardian_pins
            WHERE minor_id = \(minorID)::uuid FOR UPDATE
            """)
        guard let row = rows.first else { return nil }
        let (hash, failures, lockedUntil) = try row.decode((String, Int, Date?).self)
        return LockedPin(hash: hash, failedAttempts: failures, lockedUntil: lockedUntil)
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

    /// Stores the first PIN of `minorID`; false when another guardian set one first.
    static func insert(_ minorID: UserID, hash: String, now: Date, on tx: PostgresTransaction) async throws
        -> Bool
    {
        try await tx.query(
            """
            INSERT INTO family.guardian_pins (minor_id, pin_hash, updated_at)
            VALUES (\(minorID)::uuid, \(hash), \(now))
            ON CONFLICT (minor_id) DO NOTHING
            """
        ).affectedRows == 1
    }

    /// Replaces the PIN of `minorID` (or sets it) and ends any lockout.
    static func replace(_ minorID: UserID, hash: String, now: Date, on tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            INSERT INTO family.guardian_pins (minor_id, pin_hash, updated_at)
            VALUES (\(minorID)::uuid, \(hash), \(now))
            ON CONFLICT (minor_id) DO UPDATE SET
                pin_hash = excluded.pin_hash, failed_attempts = 0, locked_until = NULL, updated_at = excluded.updated_at
            """)
    }
}
