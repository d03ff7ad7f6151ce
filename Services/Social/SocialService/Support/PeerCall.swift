import KindredRPC

/// A call to a peer service, its failures turned into what social's own caller should hear: the peer's
/// NOT_FOUND into the caller's refusal; with `passingRefusals` (a call carrying the user's own token), the
/// peer's refusals of the user (FAILED_PRECONDITION, PERMISSION_DENIED, RESOURCE_EXHAUSTED in the peer's
/// domain, and UNAUTHENTICATED when the token expired on the way) passed on as they are;
/// a peer that says social asked wrongly into INTERNAL; anything else into UNAVAILABLE, since social changed
/// nothing and a retry may work. The peer's own answer stays the cause, for the log; `RPCClient` has already
/// warned of a peer that is down or too slow, so nothing is logged here.
enum PeerCall {
    private static let refusals: [StatusCode] = [
        .failedPrecondition, .permissionDenied, .resourceExhausted, .unauthenticated,
    ]

    static func run<T>(
        _ peer: String, passingRefusals: Bool = false, _ call: () async throws -> T,
        notFound: () -> RPCError = { .internalError("a service social depends on lost a record") }
    ) async throws -> T {
        do {
            return try await call()
        } catch let error as RPCError {
            switch error.code {
            case .notFound:
                throw notFound().with(cause: error)
            case let code where passingRefusals && refusals.contains(code):
                throw error
            case .invalidArgument, .unauthenticated, .permissionDenied, .failedPrecondition, .unimplemented,
                .internal:
                throw RPCError.internalError(PeerAnswer(peer: peer, answer: error))
            default:
                throw RPCError.unavailable(PeerAnswer(peer: peer, answer: error))
            }
        }
    }
}

/// What a peer answered social: the cause of the answer social gives, named for the log.
struct PeerAnswer: Error, CustomStringConvertible {
    let peer: String
    let answer: RPCError

    var description: String { "the \(peer) service answered \(answer)" }
}
