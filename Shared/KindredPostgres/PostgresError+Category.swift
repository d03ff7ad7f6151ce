/// How a caller should treat a `PostgresError`: the one table the gRPC mapping is built on.
extension PostgresError {
    /// The few answers a caller gives to a database error.
    public enum Category: Sendable, Equatable {
        /// A unique or exclusion constraint refused a duplicate (gRPC ALREADY_EXISTS).
        case alreadyExists
        /// A serialization failure or deadlock, still there after the transaction's retries (gRPC ABORTED).
        case retryableConflict
        /// The statement was cancelled or hit `statement_timeout` (gRPC CANCELLED or DEADLINE_EXCEEDED).
        case cancelled
        /// PostgreSQL cannot be reached, or is shutting down or starting (gRPC UNAVAILABLE).
        case unavailable
        /// Anything else is a bug or a broken invariant (gRPC INTERNAL).
        case other
    }

    /// The category of this error.
    public var category: Category {
        if kind == .connectionFailure || kind == .poolClosed { return .unavailable }
        if kind == .cancelled { return .cancelled }
        guard kind == .server, let sqlState else { return .other }
        switch sqlState {
        case "23505", "23P01": return .alreadyExists
        case "40001", "40P01": return .retryableConflict
        case "57014": return .cancelled
        // 57P01..57P03: admin/crash shutdown and "cannot connect now"; 53300: too many connections.
        case "57P01", "57P02", "57P03", "53300": return .unavailable
        default: return sqlState.hasPrefix("08") ? .unavailable : .other
        }
    }

    /// A unique constraint refused a duplicate (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// A foreign key refused a row whose parent is gone (SQLSTATE 23503).
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// A serializable transaction lost a race (SQLSTATE 40001).
    public var isSerializationFailure: Bool { sqlState == "40001" }
    /// The server broke a deadlock by aborting this transaction (SQLSTATE 40P01).
    public var isDeadlock: Bool { sqlState == "40P01" }
    /// The statement was cancelled or timed out (SQLSTATE 57014).
    public var isQueryCanceled: Bool { sqlState == "57014" }
    /// PostgreSQL was unreachable or the connection broke.
    public var isConnectionFailure: Bool { category == .unavailable }
    /// A prepared statement's result shape changed under it (a migration altered a table).
    var isStalePreparedStatement: Bool {
        sqlState == "0A000" && serverDetail?.contains("cached plan") == true
    }
    /// Worth retrying the whole transaction: serialization failure or deadlock.
    public var isRetryableConflict: Bool { isSerializationFailure || isDeadlock }
}
