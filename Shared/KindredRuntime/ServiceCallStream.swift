public import KindredMessages
public import KindredRPC

/// A peer's server stream (`WatchEvents`) called with the service's own token, as an event consumer
/// reads it: the call opens on the first `next()`, once the token is at hand, and lasts `lifetime` at most
/// (a call without a timeout gets the client's default of seconds). Its deadline ends the stream quietly
/// (nil), and the consumer opens it again from its stored cursor with a renewed token.
public struct ServiceCallStream<Message: ProtoMessage>: AsyncSequence, Sendable {
    /// How long one call may stay open.
    public static var lifetime: Duration { .seconds(3_600) }

    let credentials: ServiceCredentials
    /// Starts the call with the options carrying the token.
    let open: @Sendable (CallOptions) -> ClientResponseStream<Message>

    /// A stream that opens with `open`, given options carrying `credentials`' token.
    public init(
        credentials: ServiceCredentials,
        open: @escaping @Sendable (CallOptions) -> ClientResponseStream<Message>
    ) {
        self.credentials = credentials
        self.open = open
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: ServiceCallStream
        var messages: ClientResponseStream<Message>.AsyncIterator?

        init(stream: ServiceCallStream) {
            self.stream = stream
        }

        /// The next message; nil when the call ends, its lifetime included.
        public mutating func next() async throws -> Message? {
            if messages == nil {
                let options = try await stream.credentials.callOptions(timeout: ServiceCallStream.lifetime)
                messages = stream.open(options).makeAsyncIterator()
            }
            do {
                return try await messages?.next()
            } catch let error where error.code == .deadlineExceeded {
                return nil
            }
        }
    }
}
