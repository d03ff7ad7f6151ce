import Testing
@testable import KindredRPC

/// The call protocol without sockets: each case feeds `ServerCallState` a sequence of events and checks the
/// action each answers.
@Suite struct ServerCallStateTests {
    typealias Action = ServerCallState.Action

    /// One event and the action expected of it.
    enum Step: Sendable {
        case headers(ServerCallState.HeadersVerdict, endStream: Bool, Action)
        case message(ServerCallState.MessageAction)
        case ended(atMessageBoundary: Bool, Action)
        case wanted(ServerCallState.ReadAction)
        case send(ServerCallState.WriteAction)
        case announced(Bool)
        case headersDue(Bool)
        case keys(refusal: RPCError?, ServerCallState.KeysAction)
        case handler(ServerCallState.Outcome, Action)
        case deadline(Action)
        case drain(Action)
        case drained(copied: Int, ServerCallState.DataAction)
        case closed(Action)
    }

    static let unary = ServerCallState.HeadersVerdict.accepted(
        streamingRequest: false, awaitsKeyRefresh: false)
    static let streaming = ServerCallState.HeadersVerdict.accepted(
        streamingRequest: true, awaitsKeyRefresh: false)
    static let unknownKey = ServerCallState.HeadersVerdict.accepted(
        streamingRequest: false, awaitsKeyRefresh: true)
    static let deadline = RPCError(.deadlineExceeded, "Deadline exceeded")

    static let sequences: [(String, [Step])] = [
        (
            "a unary call answers after its data, with trailers",
            [
                .headers(unary, endStream: false, .admit(startHandler: false, refreshKeys: false)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: false)),
                .send(.submitHeadersThenQueue),
                .handler(.ok, .finishAfterData(.ok, resumeData: false, cancelHandler: false)),
                .drained(copied: 7, .sendTrailers(.ok)), .deadline(.none), .closed(.none),
            ]
        ),
        (
            "a reset while the handler runs cancels it once and drops its late answer",
            [
                .headers(streaming, endStream: false, .admit(startHandler: true, refreshKeys: false)),
                .wanted(.suspend), .closed(.cancelHandler(log: true)), .handler(.ok, .none),
                .wanted(.cancelled),
                .send(.cancelled),
            ]
        ),
        (
            "a server stream's announced headers go out at the flush, once",
            [
                .headers(unary, endStream: false, .admit(startHandler: false, refreshKeys: false)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: false)),
                .announced(true), .headersDue(true), .headersDue(false), .drained(copied: 0, .deferData),
                .send(.queue(resumeData: true)), .send(.queue(resumeData: false)),
            ]
        ),
        (
            "a server stream that finishes before the flush answers trailers-only",
            [
                .headers(unary, endStream: false, .admit(startHandler: false, refreshKeys: false)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: false)),
                .announced(true), .handler(.ok, .finishTrailersOnly(.ok, cancelHandler: false)),
                .headersDue(false),
            ]
        ),
        (
            "a message sent before the flush takes the announced headers with it",
            [
                .headers(unary, endStream: false, .admit(startHandler: false, refreshKeys: false)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: false)),
                .announced(true), .send(.submitHeadersThenQueue), .headersDue(false),
            ]
        ),
        (
            "a deadline during a key refresh ends the call, and the handler never starts",
            [
                .headers(unknownKey, endStream: false, .admit(startHandler: false, refreshKeys: true)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: true)),
                .deadline(.finishTrailersOnly(.failed(deadline), cancelHandler: true)),
                .keys(refusal: nil, .callEnded),
            ]
        ),
        (
            "a refresh that finds the token bad refuses the call",
            [
                .headers(unknownKey, endStream: false, .admit(startHandler: false, refreshKeys: true)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: true)),
                .keys(refusal: RPCError(.unauthenticated, "x"), .refuse(RPCError(.unauthenticated, "x"))),
            ]
        ),
        (
            "a second unary message is INTERNAL",
            [
                .headers(unary, endStream: false, .admit(startHandler: false, refreshKeys: false)),
                .message(.keep),
                .message(
                    .fail(
                        .finishTrailersOnly(
                            .failed(RPCError(.internal, "More than one request message for a unary request")),
                            cancelHandler: true))),
                .message(.drop),
            ]
        ),
        (
            "a unary request without a message is INTERNAL",
            [
                .headers(
                    unary, endStream: true,
                    .finishTrailersOnly(
                        .failed(RPCError(.internal, "Unary request without a message")), cancelHandler: true)),
                .closed(.none),
            ]
        ),
        (
            "a request ending inside a message is INTERNAL",
            [
                .headers(streaming, endStream: false, .admit(startHandler: true, refreshKeys: false)),
                .ended(
                    atMessageBoundary: false,
                    .finishTrailersOnly(
                        .failed(RPCError(.internal, "Request ended inside a message")), cancelHandler: true)),
            ]
        ),
        (
            "a streaming request's end wakes the reader, and later reads see the end",
            [
                .headers(streaming, endStream: false, .admit(startHandler: true, refreshKeys: false)),
                .message(.deliver), .ended(atMessageBoundary: true, .endRequests), .wanted(.endOfRequests),
            ]
        ),
        (
            "a drain ends an open server stream UNAVAILABLE after its data",
            [
                .headers(unary, endStream: false, .admit(startHandler: false, refreshKeys: false)),
                .message(.keep), .ended(atMessageBoundary: true, .startHandler(refreshKeys: false)),
                .send(.submitHeadersThenQueue), .drained(copied: 0, .deferData),
                .drain(.finishAfterData(.failed(.serverShuttingDown), resumeData: true, cancelHandler: true)),
                .drained(copied: 5, .sendTrailers(.failed(.serverShuttingDown))), .closed(.none),
            ]
        ),
        (
            "a plain-HTTP refusal gets no status and no access line",
            [
                .headers(.httpRefusal(status: 415), endStream: true, .respondHTTP(status: 415)),
                .deadline(.none), .closed(.none),
            ]
        ),
        (
            "a status set after the stream closed is dropped",
            [
                .headers(streaming, endStream: false, .admit(startHandler: true, refreshKeys: false)),
                .closed(.cancelHandler(log: true)), .closed(.none), .deadline(.none), .drain(.none),
            ]
        ),
    ]

    @Test(arguments: sequences)
    func eventSequence(name: String, steps: [Step]) {
        var state = ServerCallState()
        for (index, step) in steps.enumerated() {
            func expect<Answer: Equatable>(_ answer: Answer, _ expected: Answer) {
                #expect(answer == expected, "\(name), step \(index + 1)")
            }
            switch step {
            case .headers(let verdict, let endStream, let action):
                expect(state.headersReceived(verdict, endStream: endStream), action)
            case .message(let action): expect(state.messageReceived(), action)
            case .ended(let boundary, let action):
                expect(state.requestEnded(atMessageBoundary: boundary), action)
            case .wanted(let action): expect(state.requestWanted(), action)
            case .send(let action): expect(state.messageWillBeSent(), action)
            case .announced(let due): expect(state.responseAnnounced(), due)
            case .headersDue(let due): expect(state.announcedHeadersDue(), due)
            case .keys(let refusal, let action): expect(state.keysRefreshed(refusal: refusal), action)
            case .handler(let outcome, let action): expect(state.handlerReturned(outcome), action)
            case .deadline(let action): expect(state.deadlineExpired(), action)
            case .drain(let action): expect(state.drainTimedOut(), action)
            case .drained(let copied, let action): expect(state.outboundDrained(copied: copied), action)
            case .closed(let action): expect(state.streamClosed(), action)
            }
        }
    }

    @Test func anErrorBeforeAnyMessageIsTrailersOnlyAndASecondStatusIsDropped() {
        var state = ServerCallState()
        _ = state.headersReceived(Self.streaming, endStream: false)
        #expect(state.deadlineExpired() == .finishTrailersOnly(.failed(Self.deadline), cancelHandler: true))
        #expect(state.handlerReturned(.ok) == .none)
        #expect(state.state == .finished(.sent))
    }

    @Test func requestDataIsDeframedOnlyWhileTheCallIsOpen() {
        var state = ServerCallState()
        #expect(!state.acceptsRequestData)
        _ = state.headersReceived(Self.streaming, endStream: false)
        #expect(state.acceptsRequestData)
        _ = state.requestRejected(RPCError(.resourceExhausted, "too big"))
        #expect(!state.acceptsRequestData)
    }

    @Test func aResetBeforeTheHeadersAreInIsLoggedCancelled() {
        var state = ServerCallState()
        #expect(state.streamClosed() == .cancelHandler(log: true))
        #expect(state.state == .closed)
    }
}
