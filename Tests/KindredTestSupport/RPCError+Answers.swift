public import KindredRPC
import Testing

/// The gRPC answer `body` ends with, as a caller would receive it.
public func rpcError(_ body: () async throws -> some Any) async -> RPCError? {
    do {
        _ = try await body()
        return nil
    } catch let error as RPCError {
        return error
    } catch let error as any RPCErrorConvertible {
        return error.rpcError
    } catch {
        Issue.record("not an RPC answer: \(error)")
        return nil
    }
}

extension RPCError {
    /// An overload refusal as another gRPC server may send it: the reason, but no `RetryInfo`.
    public static let overloadRefusalNamingNoDelay = RPCError(
        .unavailable, "The service is busy.",
        details: [.errorInfo(reason: "SERVER_OVERLOADED", domain: "kindred.rpc", metadata: [:])])

    /// The `ErrorInfo` reason, if the error carries one.
    public var reason: String? {
        details.lazy.compactMap { detail -> String? in
            if case .errorInfo(let reason, _, _) = detail { reason } else { nil }
        }.first
    }

    /// The `ErrorInfo` metadata, empty if the error carries none.
    public var metadata: [String: String] {
        details.lazy.compactMap { detail -> [String: String]? in
            if case .errorInfo(_, _, let metadata) = detail { metadata } else { nil }
        }.first ?? [:]
    }

    /// The fields a `BadRequest` names, in order.
    public var badFields: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.field) } else { [] }
        }
    }

    /// What a `BadRequest` says of each field it names, in order.
    public var badFieldDescriptions: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.description) } else { [] }
        }
    }

    /// The `RetryInfo` delay, if the error carries one.
    public var retryDelay: Duration? {
        details.lazy.compactMap { detail -> Duration? in
            if case .retryInfo(let delay) = detail { delay } else { nil }
        }.first
    }
}
