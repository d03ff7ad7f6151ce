public import KindredPostgres
public import KindredRPC

/// The one place a database failure becomes a gRPC status. Handlers that expect a particular failure
/// (a duplicate username, say) catch it and say so in their own words; this is the answer for the rest.
/// The caller reads a plain sentence; the database's own words stay in the cause, for the log.
extension PostgresError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch category {
        case .alreadyExists: RPCError(.alreadyExists, "This already exists.", cause: self)
        case .retryableConflict:
            RPCError(.aborted, "Another change got there first. Please try again.", cause: self)
        case .cancelled: RPCError(.deadlineExceeded, "This took too long. Please try again.", cause: self)
        case .unavailable: .unavailable(self)
        case .other: .internalError(self)
        }
    }
}
