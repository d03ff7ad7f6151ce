/// An error from PostgreSQL or from the pool: what failed, safe to show; the server's words, for logs.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// Where the error came from.
    public enum Kind: Sendable, Equatable {
        /// The server rejected a statement; `sqlState` says why.
        case server
        /// No connection to PostgreSQL: the pool is unreachable, or a connection broke mid-call.
        case connectionFailure
        /// A result did not have the columns or types the caller decoded.
        case decoding
        /// A bind value cannot be sent (a string holding a NUL byte).
        case invalidBind
        /// The pool was closed.
        case poolClosed
        /// The calling task was cancelled before its statement was sent.
        case cancelled
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The five-character SQLSTATE, when the server sent one (`23505`, `40001`, …).
    public let sqlState: String?
    /// A message without server internals (no values, no constraint names): safe for a caller to see.
    public let message: String
    /// Everything the server or libpq said (message, detail, hint, constraint, position): for logs only.
    public let serverDetail: String?

    /// Creates an error; the pool makes these, tests may too.
    public init(kind: Kind, sqlState: String? = nil, message: String, serverDetail: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.serverDetail = serverDetail
    }

    /// The message, the SQLSTATE and the server detail: for logs, never for callers.
    public var description: String {
        var text = message
        if let sqlState { text += " [SQLSTATE \(sqlState)]" }
        if let serverDetail { text += ": \(serverDetail)" }
        return text
    }
}

extension PostgresError {
    static func unavailable(_ detail: String?) -> PostgresError {
        PostgresError(kind: .connectionFailure, message: "PostgreSQL is unavailable", serverDetail: detail)
    }

    static func connectionLost(_ detail: String?) -> PostgresError {
        PostgresError(
            kind: .connectionFailure, message: "the connection to PostgreSQL was lost", serverDetail: detail)
    }

    static let closed = PostgresError(kind: .poolClosed, message: "the PostgreSQL pool is closed")

    static let cancelled = PostgresError(
        kind: .cancelled, message: "the call was cancelled before it was sent")

    static func decoding(_ message: String) -> PostgresError {
        PostgresError(kind: .decoding, message: message)
    }

    /// A server error; the safe message names only the SQLSTATE class, never values or identifiers.
    static func server(sqlState: String?, detail: String) -> PostgresError {
        let code = sqlState ?? "XX000"
        return PostgresError(
            kind: .server, sqlState: code, message: "PostgreSQL rejected the statement (SQLSTATE \(code))",
            serverDetail: detail)
    }
}
