public import KindredMessages

/// The request messages of a client-streaming or bidirectional call, in order; ends when the client half-closes.
public struct RequestStream<Message: ProtoMessage>: AsyncSequence, Sendable {
    public typealias Element = Message
    let call: ServerCall

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(call: call)
    }

    /// Reads the next request; nil after the last. Throws if the call was cancelled or a message is malformed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let call: ServerCall

        public mutating func next() async throws -> Message? {
            guard let bytes = try await call.receive() else { return nil }
            return try call.decode(bytes)
        }
    }
}

/// Writes the response messages of a server-streaming or bidirectional call.
public struct ResponseStreamWriter<Message: ProtoMessage>: Sendable {
    let call: ServerCall

    /// Sends one message; suspends while the client is not reading (HTTP/2 flow control), throws once the
    /// call is over (cancelled, deadline passed, connection gone).
    public func write(_ message: Message) async throws {
        try await call.send(RPCRouter.encode(message))
    }
}
