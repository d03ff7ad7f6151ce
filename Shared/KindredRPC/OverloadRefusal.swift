/// The trailers-only answer to a call refused at its loop's admission limit, made once per server. Under
/// overload a loop sends thousands of them a second, all alike, and building each one (its
/// `grpc-status-details-bin`: `ErrorInfo` and `RetryInfo` packed into a `google.rpc.Status`, then base64) took
/// ~8% of a service's CPU at twice the stack's capacity (`perf`, Tests/Benchmarks/README.md, "Session 25").
struct OverloadRefusal: Sendable {
    let retryAfter: Duration
    let error: RPCError
    /// What `ServerCall` would build for `error` on a call with no response headers or trailers set:
    /// `:status`, `content-type` and `grpc-accept-encoding`, then the status fields.
    let headers: HeaderBlock

    init(retryAfter: Duration) {
        self.retryAfter = retryAfter
        error = .serverOverloaded(retryAfter: retryAfter)
        headers = HeaderBlock(
            StatusTrailers.responseHeaders(encoding: .identity, metadata: Metadata())
                + StatusTrailers.fields(
                    code: error.code, message: error.message, details: error.details, metadata: Metadata()))
    }

    /// The refusal of a call told to wait `delay`: the prepared one when the delays agree (a loop's limit is
    /// made with the settings of the first server on it that asks).
    func error(retryAfter delay: Duration) -> RPCError {
        delay == retryAfter ? error : .serverOverloaded(retryAfter: delay)
    }

    /// The prepared answer when `outcome` is this refusal and the call set nothing of its own; nil otherwise (a
    /// loop shared with a server whose refusals wait another delay, any other failure).
    func headers(for outcome: ServerCallState.Outcome, responseHeaders: Metadata, trailers: Metadata)
        -> HeaderBlock?
    {
        guard case .failed(let failure) = outcome, failure == error, responseHeaders.isEmpty, trailers.isEmpty
        else { return nil }
        return headers
    }
}
