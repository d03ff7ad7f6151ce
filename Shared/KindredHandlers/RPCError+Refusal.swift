public import KindredRPC

extension RPCError {
    /// A rule's refusal: `code`, a message an app may show, and a machine-readable `ErrorInfo.reason` in the
    /// service's `domain` (`kindred.family`), with `RetryInfo` when a retry after `retryAfter` may work.
    public static func refusal(
        _ code: StatusCode, _ reason: String, _ message: String, domain: String,
        metadata: [String: String] = [:], retryAfter: Duration? = nil
    ) -> RPCError {
        var details: [ErrorDetail] = [.errorInfo(reason: reason, domain: domain, metadata: metadata)]
        if let retryAfter { details.append(.retryInfo(retryDelay: retryAfter)) }
        return RPCError(code, message, details: details)
    }
}
