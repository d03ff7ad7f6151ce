import KindredRPC

/// A call to a peer service, its failures turned into what social's own caller should hear: the peer's
/// NOT_FOUND into the caller's refusal; with `passingRefusals` (a call carrying the user's own token), the
/// peer's refusals of the user (FAILED_PRECONDITION, PERMISSION_DENIED, RESOURCE_EXHAUSTED in the peer's
/// domain, and UNAUTHENTICATED when the token expired on the way) passed on as they are;
/// a peer that says social asked wrongly into INTERNAL; anything else into UNAVAILABLE, since social changed
/// nothing and a retry may work.
enum PeerCall {
    private static let refusals: [StatusCode] = [
        .failedPrecondition, .permissionDenied, .resourceExhausted, .unauthenticated,
    ]

    static func run<T>(
        _ peer: String, passingRefusals: Bool = false, _ call: () async throws -> T,
        notFound: () -> RPCError = { RPCError(.internal, "a service social depends on lost a record") }
    ) async throws -> T {
        do {
            return try await call()
        } catch let error as RPCError {
            switch error.code {
            case .notFound:
                throw notFound()
            case let code where passingRefusals && refusals.contains(code):
                throw error
            case .invalidArgument, .unauthenticated, .permissionDenied, .failedPrecondition, .unimplemented,
                .internal:
                throw RPCError(.internal, "the \(peer) service refused social's call")
            default:
                throw RPCError(.unavailable, "the \(peer) service is unavailable; nothing was changed")
            }
        }
    }
}
