import Logging

/// How a call ended, as its access line sees it: whose fault it was, which sets the line's level (the
/// server's own faults are `error`, so `--log-level warning` shows only them), and whether a client can end
/// calls this way by the thousand, which puts the line under the connection's budget (`LogSummarizer`).
enum CallEnding: Int, CaseIterable, Equatable {
    /// The handler answered, whatever the status: the service's own answer to this caller.
    case answered
    /// INTERNAL, UNKNOWN or DATA_LOSS that the caller's bytes did not cause: a bug or a broken invariant.
    case serverFault
    /// The client reset the stream or left.
    case reset
    /// Refused before its handler ran: an unknown method, no or a bad token, bad headers, a shed call.
    case refused
    /// The client's bytes were malformed (framing, compression, a message that does not decode).
    case malformed

    init(code: StatusCode, cause: (any Error)?, handlerStarted: Bool, clientLeft: Bool) {
        if clientLeft {
            self = .reset
        } else if cause is ClientFault {
            self = .malformed
        } else if code == .internal || code == .unknown || code == .dataLoss {
            self = .serverFault
        } else if !handlerStarted && code != .ok {
            self = .refused
        } else {
            self = .answered
        }
    }

    var level: Logger.Level { self == .serverFault ? .error : .info }

    /// Whether the line is under the connection's budget of lines a second.
    var isNoisy: Bool { self == .reset || self == .refused || self == .malformed }

    /// The name in summaries and metrics.
    var name: String {
        switch self {
        case .answered: "answered"
        case .serverFault: "server_fault"
        case .reset: "reset"
        case .refused: "refused"
        case .malformed: "malformed"
        }
    }
}

/// The cause of an answer to the client's malformed bytes: the status is the one gRPC prescribes (INTERNAL
/// for a broken length prefix, as every gRPC server answers), but the fault is the client's, so the access
/// line is `info`, not the `error` of the server's own faults.
struct ClientFault: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension RPCError {
    /// An answer to the client's malformed request: `message` to the caller, the fault marked as the client's.
    static func malformedRequest(_ code: StatusCode, _ message: String) -> RPCError {
        RPCError(code, message, cause: ClientFault(message))
    }
}
