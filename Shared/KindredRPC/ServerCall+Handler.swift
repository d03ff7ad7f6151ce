import KindredMessages
import KindredMetrics

/// The handler's side of a call: its task, and reading requests and writing responses from it.
extension ServerCall {
    /// Starts the handler's task (`refreshKeys`: it first fetches the keys the token names).
    func startHandler(refreshKeys: Bool) {
        guard admit() else { return }
        let deadline = deadline
        let trace = trace
        let inFlight = metrics.inFlight
        inFlight.add(0)
        task = Task(executorPreference: loop) {
            defer { inFlight.subtract(0) }
            // Calls the handler makes through RPCClient carry its trace and inherit what remains of its
            // deadline; its log lines carry the trace too.
            await TraceContext.$current.withValue(trace) {
                guard let deadline else { return await self.runHandler(refreshKeys: refreshKeys) }
                await RPCDeadline.$current.withValue(deadline) {
                    await self.runHandler(refreshKeys: refreshKeys)
                }
            }
        }
    }

    private func runHandler(refreshKeys: Bool) async {
        do {
            if refreshKeys { try await authenticateAfterKeyRefresh() }
            try await route.body(self, ServerContext(call: self, authentication: authentication))
            perform(state.handlerReturned(.ok))
        } catch {
            // The access line of the call carries the cause; the caller gets no internals.
            perform(state.handlerReturned(.failed(RPCError.answering(error))))
        }
        task = nil
    }

    func cancelDeadline() {
        guard let timer = deadlineTimer else { return }
        loop.cancel(timer)
        deadlineTimer = nil
    }

    /// Cancels the handler and wakes it if it waits for a request or for room to write.
    func endHandler() {
        cancelDeadline()
        task?.cancel()
        if let receiver {
            self.receiver = nil
            receiver.resume(throwing: CancellationError())
        }
        if let writer {
            self.writer = nil
            writer.resume(throwing: CancellationError())
        }
    }

    /// The one request of a unary or server-streaming call, already complete when the handler starts.
    func decodeSingleRequest<Message: ProtoMessage>() throws -> Message {
        defer { singleRequest = nil }
        return try decode(singleRequest ?? [])
    }

    func decode<Message: ProtoMessage>(_ bytes: [UInt8]) throws -> Message {
        do {
            return try bytes.withUnsafeBytes { try Message(serializedBytes: $0, maxSize: .max) }
        } catch {
            throw RPCError.malformedRequest(
                .invalidArgument, "Malformed \(Message.protoMessageName): \(error)")
        }
    }

    /// The next request message of a streaming call; nil after the client half-closed.
    func receive() async throws -> [UInt8]? {
        // Off the loop only when read from a task that does not prefer it (e.g. a detached one): hop over.
        guard loop.inEventLoop else {
            return try await withTaskExecutorPreference(loop) { try await receive() }
        }
        if queuedMessages > 0 {
            let bytes = inbound[inboundHead]
            inboundHead += 1
            if inboundHead == inbound.count {
                inbound.removeAll(keepingCapacity: true)
                inboundHead = 0
                releaseWindow()
            }
            return bytes
        }
        switch state.requestWanted() {
        case .cancelled: throw CancellationError()
        case .endOfRequests: return nil
        case .suspend:
            releaseWindow()
            return try await withUnsafeThrowingContinuation { receiver = $0 }
        }
    }

    /// Opens the flow-control window for what the handler has now read.
    private func releaseWindow() {
        guard unconsumedBytes > 0 else { return }
        connection.consume(streamID, unconsumedBytes)
        unconsumedBytes = 0
        connection.markDirty()
    }

    /// Queues one response message, suspending while more than the buffer limit waits to be sent.
    func send(_ bytes: [UInt8]) async throws {
        guard loop.inEventLoop else {
            return try await withTaskExecutorPreference(loop) { try await send(bytes) }
        }
        try sendFinal(bytes)
        if outbound.count - outboundOffset > core.configuration.responseBufferLimit {
            try await withUnsafeThrowingContinuation { writer = $0 }
        }
    }
}
