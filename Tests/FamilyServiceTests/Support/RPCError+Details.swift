import KindredRPC

extension RPCError {
    /// The `ErrorInfo` reason, if the error carries one.
    var reason: String? {
        details.lazy.compactMap { detail -> String? in
            if case .errorInfo(let reason, _, _) = detail { reason } else { nil }
        }.first
    }

    /// The `RetryInfo` delay, if the error carries one.
    var retryDelay: Duration? {
        details.lazy.compactMap { detail -> Duration? in
            if case .retryInfo(let delay) = detail { delay } else { nil }
        }.first
    }

    /// The fields `BadRequest` names, in order.
    var badFields: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.field) } else { [] }
        }
    }
}
