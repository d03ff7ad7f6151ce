import KindredPostgres
import KindredRPC

/// The one place a database failure becomes a gRPC status. Handlers that expect a particular failure
/// (a duplicate username, say) catch it and say so in their own words; this is the answer for the rest.
extension PostgresError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch category {
        case .alreadyExists: RPCError(.alreadyExists, "This already exists.")
        case .retryableConflict: RPCError(.aborted, "Another change got there first. Please try again.")
        case .cancelled: RPCError(.deadlineExceeded, "This took too long. Please try again.")
        case .unavailable: RPCError(.unavailable, "the database is unavailable; retry later")
        case .other: RPCError(.internal, "Internal error")
        }
    }
}
