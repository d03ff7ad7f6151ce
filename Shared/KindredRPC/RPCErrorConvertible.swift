/// An error that knows the gRPC status it should end a call with, so that a lower layer (the
/// database, say) maps its failures once instead of every handler catching them.
public protocol RPCErrorConvertible: Error {
    /// The status the caller sees; an INTERNAL one is logged with the original error.
    var rpcError: RPCError { get }
}
