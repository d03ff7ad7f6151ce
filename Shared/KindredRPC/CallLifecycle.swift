/// The response side of one call: nothing sent yet, headers and messages flowing, or finished.
struct CallLifecycle: Equatable {
    enum State: Equatable {
        /// No response HEADERS yet: an error now goes out trailers-only.
        case awaitingResponse
        /// Response HEADERS submitted; messages may follow; trailers end it.
        case streaming
        /// Status sent (or the stream is gone); everything else is dropped.
        case finished
    }

    /// How the final status goes out.
    enum Ending: Equatable {
        /// One HEADERS frame with END_STREAM carrying headers and status.
        case trailersOnly
        /// A trailing HEADERS frame after the data.
        case trailers
    }

    private(set) var state = State.awaitingResponse

    var isFinished: Bool { state == .finished }

    /// Records that the response starts (a message, or a server stream's handler starting); true when the
    /// response HEADERS must be submitted now.
    mutating func willSendMessage() -> Bool {
        guard state == .awaitingResponse else { return false }
        state = .streaming
        return true
    }

    /// Records the final status; nil when the call already finished (the status is dropped).
    mutating func finish() -> Ending? {
        switch state {
        case .awaitingResponse:
            state = .finished
            return .trailersOnly
        case .streaming:
            state = .finished
            return .trailers
        case .finished:
            return nil
        }
    }

    /// The stream closed under the call (RST_STREAM, connection loss).
    mutating func abandon() {
        state = .finished
    }
}
