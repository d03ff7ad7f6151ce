import KindredHandlers
import KindredRPC

/// Every refusal the family service answers with: a gRPC status, a message an app may show, and a
/// machine-readable `ErrorInfo.reason` in the `kindred.family` domain.
enum FamilyError {
    static let domain = "kindred.family"

    /// A refusal with its reason, and `RetryInfo` when `retryAfter` is given.
    static func refusal(
        _ code: StatusCode, _ reason: String, _ message: String, metadata: [String: String] = [:],
        retryAfter: Duration? = nil
    ) -> RPCError {
        RPCError.refusal(code, reason, message, domain: domain, metadata: metadata, retryAfter: retryAfter)
    }
}
