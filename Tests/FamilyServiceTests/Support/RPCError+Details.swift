import KindredRPC

extension RPCError {
    /// The `ErrorInfo` reason, if the error carries one.
    var reason: String? {
        details.lazy.compactMap { detail -> String? in
            if case .errorInfo(let reason, _, _) = detail { reason } else { nil }
        }.first
    }

    /// The `ErrorInfo` metadata, empty if the error carries none.
    var metadata: [String: String] {
        details.lazy.compactMap { detail -> [String: String]? in
            if case .errorInfo(_, _, let metadata) = detail { metadata } else { nil }
        }.first ?? [:]
    }

    /// The fields a `BadRequest` names, in order.
    var badFields: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.field) } else { [] }
        }
    }
}
