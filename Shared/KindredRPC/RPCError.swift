/// An error a handler throws to end a call with a specific status. Its code, message, details and trailers
/// reach the caller (INTERNAL and UNAVAILABLE with a generic sentence, see `RPCError+Cause.swift`); its
/// `cause` reaches only the log.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status sent in `grpc-status`.
    public var code: StatusCode
    /// The human-readable message sent in `grpc-message`.
    public var message: String
    /// Structured details sent in `grpc-status-details-bin`.
    public var details: [ErrorDetail]
    /// Trailing metadata sent with the status.
    public var trailers: Metadata
    /// What went wrong underneath (a peer's answer, a database error, a bug): logged, never sent.
    public var cause: (any Error)?

    /// Creates an error with a status, a message, and optional details, trailers and cause.
    public init(
        _ code: StatusCode, _ message: String = "", details: [ErrorDetail] = [],
        trailers: Metadata = Metadata(), cause: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.trailers = trailers
        self.cause = cause
    }

    /// Equal when the caller would receive the same answer: the cause, never sent, is not compared.
    public static func == (lhs: RPCError, rhs: RPCError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.details == rhs.details
            && lhs.trailers == rhs.trailers
    }

    public var description: String {
        let answer = "\(code) (\(code.rawValue)): \(message)"
        guard let cause else { return answer }
        return answer + "; cause: \(String(reflecting: cause))"
    }
}

/// A structured error detail, carried in `grpc-status-details-bin` as one of the `google.rpc` types.
public enum ErrorDetail: Sendable, Equatable {
    /// `google.rpc.ErrorInfo`: a machine-readable reason, its domain and extra key/value pairs.
    case errorInfo(reason: String, domain: String, metadata: [String: String])
    /// `google.rpc.BadRequest`: every field that failed validation.
    case badRequest([FieldViolation])
    /// `google.rpc.RetryInfo`: when the caller may retry.
    case retryInfo(retryDelay: Duration)

    /// One invalid field of a request (`google.rpc.BadRequest.FieldViolation`).
    public struct FieldViolation: Sendable, Equatable {
        /// Path to the field, e.g. `profile.birth_date`.
        public var field: String
        /// Why it is invalid.
        public var description: String

        /// Creates a violation for a field.
        public init(field: String, description: String) {
            self.field = field
            self.description = description
        }
    }
}

extension StatusCode: CustomStringConvertible {
    /// The canonical upper-case name, e.g. `DEADLINE_EXCEEDED`.
    public var description: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        }
    }
}
