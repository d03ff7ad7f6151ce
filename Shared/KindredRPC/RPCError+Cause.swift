/// Answers that say nothing of internals, and the causes that stay behind for the log.
extension RPCError {
    /// What the caller of an INTERNAL answer reads: the server's fault, nothing more.
    public static let internalMessage = "Something went wrong on our side. Please try again."
    /// What the caller of an UNAVAILABLE answer reads: a dependency is down, nothing changed, try again.
    public static let unavailableMessage = "The service is temporarily unavailable. Please try again."

    /// INTERNAL with the generic sentence; `cause` (a bug, a peer's unexpected answer) goes to the log only.
    public static func internalError(_ cause: any Error) -> RPCError {
        RPCError(.internal, internalMessage, cause: cause)
    }

    /// INTERNAL with the generic sentence, for a broken invariant that no error value describes.
    public static func internalError(_ fault: String) -> RPCError {
        internalError(Fault(fault))
    }

    /// UNAVAILABLE with the generic sentence; `cause` (a peer or the database out of reach) goes to the log.
    public static func unavailable(_ cause: any Error) -> RPCError {
        RPCError(.unavailable, unavailableMessage, cause: cause)
    }

    /// This error with `cause` kept for the log.
    public func with(cause: any Error) -> RPCError {
        var error = self
        error.cause = cause
        return error
    }

    /// The answer to a handler that threw `error`: an `RPCError` as written, an `RPCErrorConvertible` mapped
    /// once, anything else INTERNAL; the thrown error kept as the cause. A server fault's own words never
    /// reach the caller: INTERNAL and UNAVAILABLE get the generic sentences, and a message that said more is
    /// kept as the cause. A refusal with an `ErrorInfo` reason is a service's own answer, written for
    /// the caller ("The service is busy. …"), and is sent as it is; UNKNOWN keeps its message too (gRPC's
    /// interop cases echo one through it).
    static func answering(_ error: any Error) -> RPCError {
        let answer: RPCError
        switch error {
        case let error as RPCError: answer = error
        case let error as any RPCErrorConvertible: answer = error.rpcError.keepingCause(error)
        default: return internalError(error)
        }
        return answer.withoutInternals
    }

    /// The same answer with its message replaced by the generic sentence when its code is a server fault.
    var withoutInternals: RPCError {
        guard details.errorInfoReason == nil else { return self }
        let generic: String
        switch code {
        case .internal: generic = Self.internalMessage
        case .unavailable: generic = Self.unavailableMessage
        default: return self
        }
        guard message != generic else { return self }
        var answer = self
        answer.message = generic
        // The words the caller no longer reads still reach the log, before any cause they came with.
        if !message.isEmpty {
            answer.cause = Fault(cause.map { "\(message): \(String(reflecting: $0))" } ?? message)
        }
        return answer
    }

    private func keepingCause(_ error: any Error) -> RPCError {
        cause == nil ? with(cause: error) : self
    }

    /// A fault described in words: the cause of an answer that no error value explains.
    public struct Fault: Error, CustomStringConvertible {
        public let description: String

        public init(_ description: String) {
            self.description = description
        }
    }
}

extension [ErrorDetail] {
    /// The `ErrorInfo` reason, when the details carry one.
    var errorInfoReason: String? {
        for case .errorInfo(let reason, _, _) in self { return reason }
        return nil
    }
}
