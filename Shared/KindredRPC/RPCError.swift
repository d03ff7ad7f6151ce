/// An error a handler throws to end a call with a specific status; it reaches the caller as-is.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status sent in `grpc-status`.
    public var code: StatusCode
    /// The human-readable message sent in `grpc-message`.
    public var message: String
    /// Structured details sent in `grpc-status-details-bin`.
    public var details: [ErrorDetail]
    /// Trailing metadata sent with the status.
    public var trailers: Metadata

    /// Creates an error with a status, a message, and optional details and trailers.
    public init(
        _ code: StatusCode, _ message: String = "", details: [ErrorDetail] = [],
        trailers: Metadata = Metadata()
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.trailers = trailers
    }

    public var description: String { "\(code) (\(code.rawValue)): \(message)" }
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
