import Logging
import Testing

@testable import KindredRPC

/// The summarizer as a table: events at given times in, the lines a log would get out (each written line, and
/// each summary when its timer fires), with the clock injected; and whose fault each ending is.
@Suite struct LogSummarizerTests {
    enum Event {
        /// A line for `key` at `ms` milliseconds.
        case line(String, ms: UInt64)
        /// The clock reaches `ms`: a summary timer armed for then or earlier fires.
        case tick(ms: UInt64)
    }

    /// Runs `events` through a summarizer of 2 lines per 1,000 ms and returns what the log would hold.
    static func lines(_ events: [Event]) -> [String] {
        var summarizer = LogSummarizer<String>(linesPerWindow: 2, window: .milliseconds(1_000))
        var timer: UInt64?
        var out: [String] = []
        func fire(upTo now: UInt64) {
            guard let due = timer, due <= now else { return }
            timer = nil
            guard let counts = summarizer.takeSummary() else { return }
            out.append(
                "summary "
                    + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            )
        }
        for event in events {
            switch event {
            case .tick(let ms):
                fire(upTo: ms * 1_000_000)
            case .line(let key, let ms):
                fire(upTo: ms * 1_000_000)
                switch summarizer.admit(key, now: ms * 1_000_000) {
                case .write: out.append(key)
                case .count(let armAt): if let armAt { timer = armAt }
                }
            }
        }
        return out
    }

    @Test(
        arguments: [
            // A few lines: every one written, no summary.
            ([.line("reset", ms: 0), .line("reset", ms: 10), .tick(ms: 5_000)], ["reset", "reset"]),
            // A flood in one second: two lines, then one summary of the rest when the second ends.
            (
                [
                    .line("reset", ms: 0), .line("reset", ms: 1), .line("reset", ms: 2),
                    .line("malformed", ms: 3),
                    .line("reset", ms: 4), .tick(ms: 999), .tick(ms: 1_000),
                ],
                ["reset", "reset", "summary malformed=1,reset=2"]
            ),
            // The next second starts a new budget; its own overflow is summarized on its own.
            (
                [
                    .line("reset", ms: 0), .line("reset", ms: 1), .line("reset", ms: 2),
                    .line("reset", ms: 1_500),
                    .line("reset", ms: 1_501), .line("refused", ms: 1_502), .tick(ms: 2_500),
                ],
                ["reset", "reset", "summary reset=1", "reset", "reset", "summary refused=1"]
            ),
            // A flood that never stops: two lines and one summary a second, however many calls.
            (
                (0..<3_000).map { Event.line("reset", ms: UInt64($0)) } + [.tick(ms: 3_000)],
                [
                    "reset", "reset", "summary reset=998", "reset", "reset", "summary reset=998", "reset",
                    "reset",
                    "summary reset=998",
                ]
            ),
        ] as [([Event], [String])])
    func eventsInLinesOut(events: [Event], expected: [String]) {
        #expect(Self.lines(events) == expected)
    }

    @Test(
        arguments: [
            // The handler's answer, whatever it is: the caller's business, info.
            (StatusCode.ok, nil, true, false, CallEnding.answered, Logger.Level.info),
            (.notFound, nil, true, false, .answered, .info),
            (
                .unavailable, RPCError.Fault("PostgreSQL is down") as (any Error)?, true, false, .answered,
                .info
            ),
            // The server's own faults: error, always written.
            (.internal, RPCError.Fault("a bug"), true, false, .serverFault, .error),
            (.unknown, nil, true, false, .serverFault, .error),
            (.dataLoss, nil, true, false, .serverFault, .error),
            // The client's malformed bytes: INTERNAL on the wire as gRPC says, but the client's fault.
            (.internal, ClientFault("Malformed message length prefix"), false, false, .malformed, .info),
            (.invalidArgument, ClientFault("Malformed Request"), true, false, .malformed, .info),
            (.resourceExhausted, ClientFault("too large"), false, false, .malformed, .info),
            // Refused before any handler ran: an unknown method, no token.
            (.unimplemented, nil, false, false, .refused, .info),
            (.unauthenticated, nil, false, false, .refused, .info),
            // The client reset the stream.
            (.cancelled, RPCError.Fault("the client left"), true, true, .reset, .info),
        ] as [(StatusCode, (any Error)?, Bool, Bool, CallEnding, Logger.Level)])
    func levelsSayWhoseFaultItIs(
        code: StatusCode, cause: (any Error)?, handlerStarted: Bool, clientLeft: Bool, ending: CallEnding,
        level: Logger.Level
    ) {
        let actual = CallEnding(
            code: code, cause: cause, handlerStarted: handlerStarted, clientLeft: clientLeft)
        #expect(actual == ending)
        #expect(actual.level == level)
        #expect(actual.isNoisy == [.reset, .refused, .malformed].contains(ending))
    }
}
