public import KindredRPC

/// A call to a service this one depends on (a peer), its failures turned into what this service's own caller
/// should hear: the peer's NOT_FOUND into the caller's refusal; with `passingRefusals` (a call carrying the
/// user's own token), the peer's refusals of the user (FAILED_PRECONDITION, PERMISSION_DENIED,
/// RESOURCE_EXHAUSTED in the peer's domain, and UNAUTHENTICATED when the token expired on the way) passed on
/// as they are; a peer that says this service asked wrongly into INTERNAL; a peer too busy to start the call,
/// or this service's client refusing to send it one more (`ClientThrottle`), into this service's own
/// SERVER_OVERLOADED with the peer's retry delay, so the caller backs off as asked;
/// anything else into UNAVAILABLE, since nothing changed here and a retry may work. The peer's own answer stays the cause, for the log;
/// `RPCClient` has already warned of a peer that is down or too slow, so nothing is logged here.
public enum PeerCall {
    private static let refusals: [StatusCode] = [
        .failedPrecondition, .permissionDenied, .resourceExhausted, .unauthenticated,
    ]

    /// Runs `call` to `peer` (its name, for the log), mapping its failures as above.
    public static func run<T>(
        _ peer: String, passingRefusals: Bool = false, _ call: () async throws -> T,
        notFound: () -> RPCError = { .internalError("a service this one depends on lost a record") }
    ) async throws -> T {
        do {
            return try await call()
        } catch let error as RPCError {
            if let delay = error.overloadRetryDelay {
                throw RPCError.serverOverloaded(retryAfter: delay).with(
                    cause: PeerAnswer(peer: peer, answer: error))
            }
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

/// What a peer answered: the cause of the answer this service gives, named for the log.
public struct PeerAnswer: Error, CustomStringConvertible {
    public let peer: String
    public let answer: RPCError

    public var description: String {
        // Refused here, unsent: the log tells an operator which side said no.
        answer.isThrottledByClient
            ? "not sent to the \(peer) service, which keeps refusing calls for overload (client-side throttle)"
            : "the \(peer) service answered \(answer)"
    }
}
