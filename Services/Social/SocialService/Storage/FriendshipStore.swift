import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `social.friend_requests` (pending requests only) and `social.friendships` (two rows per
/// friendship, one per side). The changes that add a row run under `GraphStore.lockPair`.
enum FriendshipStore {
    /// The side of a request that may end it: the recipient accepts or declines, the sender cancels.
    enum Side {
        case sender, recipient
    }

    /// Sends a request from `sender` to `recipient` unless one is pending already; whether it was sent.
    static func request(
        _ requestID: FriendRequestID, from sender: UserID, to recipient: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        try await tx.query(
            """
            INSERT INTO social.friend_requests (sender_id, recipient_id, request_id, sent_at)
            VALUES (\(sender)::uuid, \(recipient)::uuid, \(requestID)::uuid, \(now))
            ON CONFLICT (sender_id, recipient_id) DO NOTHING
            RETURNING 1
            """
        ).count == 1
    }

    /// The sender of pending request `requestID` if `recipient` is its recipient.
    static func sender(of requestID: FriendRequestID, to recipient: UserID, in tx: PostgresTransaction)
        async throws -> UserID?
    {
        try await tx.query(
            """
            SELECT sender_id::text FROM social.friend_requests
            WHERE request_id = \(requestID)::uuid AND recipient_id = \(recipient)::uuid
            """
        ).first?.decode(UserID.self)
    }

    /// Ends pending request `requestID` if `user` is its `side`; the other side's id, nil when there was none.
    static func end(_ requestID: FriendRequestID, by user: UserID, as side: Side, on db: some StatementRunner)
        async throws
        -> UserID?
    {
        let bySender = side == .sender
        let rows = try await db.query(
            """
            DELETE FROM social.friend_requests
            WHERE request_id = \(requestID)::uuid
              AND \(user)::uuid = CASE WHEN \(bySender) THEN sender_id ELSE recipient_id END
            RETURNING sender_id::text, recipient_id::text
            """)
        return try rows.first.map { row in
            let (sender, recipient) = try row.decode((UserID, UserID).self)
            return bySender ? recipient : sender
        }
    }

    /// Ends the pending request from `sender` to `recipient`; whether there was one.
    static func end(from sender: UserID, to recipient: UserID, in tx: PostgresTransaction) async throws
        -> Bool
    {
        try await tx.query(
            """
            DELETE FROM social.friend_requests WHERE sender_id = \(sender)::uuid AND recipient_id = \(recipient)::uuid
            RETURNING 1
            """
        ).count == 1
    }

    /// Makes `a` and `b` friends since `now`: a row for each side.
    static func befriend(_ a: UserID, _ b: UserID, at now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            INSERT INTO social.friendships (user_id, friend_id, since)
            VALUES (\(a)::uuid, \(b)::uuid, \(now)), (\(b)::uuid, \(a)::uuid, \(now))
            ON CONFLICT (user_id, friend_id) DO NOTHING
            """)
    }

    /// Ends the friendship of `a` and `b`, both rows; whether there was one.
    static func unfriend(_ a: UserID, _ b: UserID, on db: some StatementRunner) async throws -> Bool {
        try await db.query(
            """
            DELETE FROM social.friendships
            WHERE (user_id = \(a)::uuid AND friend_id = \(b)::uuid) OR (user_id = \(b)::uuid AND friend_id = \(a)::uuid)
            RETURNING 1
            """
        ).count > 0
    }
}
