import KindredRPC
import KindredTestSupport
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct ClientStreamingTests {
    @Test func serverStreamIsReadToItsEnd() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            var received: [String] = []
            let stream = client.serverStreaming(
                method: ClientTestService.method("Count"), request: ClientTestText("500"),
                responseType: ClientTestText.self)
            for try await message in stream { received.append(message.text) }
            #expect(received == (0..<500).map(String.init))
            client.close()
            await server.stop()
        }
    }

    @Test func largeServerStreamIsReadThroughFlowControl() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            var count = 0
            // 20 MB: far beyond one flow-control window, so the window must be reopened as we read.
            for try await message in client.serverStreaming(
                method: ClientTestService.method("Count"), request: ClientTestText("200,0,100000"),
                responseType: ClientTestText.self)
            {
                #expect(message.text.hasPrefix("\(count) ") && message.text.utf8.count > 100_000)
                count += 1
            }
            #expect(count == 200)
            client.close()
            await server.stop()
        }
    }

    /// Regression: a message larger than the stream's window (1 MiB) hung until the deadline: the client
    /// acknowledged no part of a message it waited for, so its rest never came (DownloadPhoto's 1 MiB chunks).
    @Test func messagesLargerThanTheWindowArriveWhole() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            var sizes: [Int] = []
            for try await message in client.serverStreaming(
                method: ClientTestService.method("Count"), request: ClientTestText("3,0,1100000"),
                responseType: ClientTestText.self)
            {
                sizes.append(message.text.utf8.count)
            }
            #expect(sizes == [1_100_001, 1_100_001, 1_100_001])
            client.close()
            await server.stop()
        }
    }

    /// A server stream failing after a message larger than the window reports its own status, not the
    /// client's DEADLINE_EXCEEDED.
    @Test func aFailureAfterALargeMessageArrivesAsItsOwnStatus() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            var sizes: [Int] = []
            let stream = client.serverStreaming(
                method: ClientTestService.method("LargeThenFail"), request: ClientTestText(),
                responseType: ClientTestText.self)
            let error = await #expect(throws: RPCError.self) {
                for try await message in stream { sizes.append(message.text.utf8.count) }
            }
            #expect(sizes == [1_100_000])
            #expect(error?.code == .dataLoss && error?.message == "the rest of the photo could not be read")
            client.close()
            await server.stop()
        }
    }

    @Test func breakingOutOfAStreamCancelsItOnTheServer() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            var received = 0
            for try await _ in client.serverStreaming(
                method: ClientTestService.method("Count"), request: ClientTestText("1000,5"),
                responseType: ClientTestText.self)
            {
                received += 1
                if received == 3 { break }
            }
            try await eventually("the server's stream is cancelled") {
                server.observations.streamCancelled.withLock { $0 }
            }
            client.close()
            await server.stop()
        }
    }

    @Test func cancellingTheConsumingTaskCancelsTheStream() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let firstArrived = Atomic<Bool>(false)
            let consumer = Task(executorPreference: clientTestLoop) {
                for try await _ in client.serverStreaming(
                    method: ClientTestService.method("Count"), request: ClientTestText("1000,5"),
                    responseType: ClientTestText.self)
                {
                    firstArrived.store(true, ordering: .relaxed)
                }
            }
            try await eventually("the first message arrived") { firstArrived.load(ordering: .relaxed) }
            consumer.cancel()
            let error = await #expect(throws: RPCError.self) { try await consumer.value }
            #expect(error?.code == .cancelled)
            try await eventually("the server's stream is cancelled") {
                server.observations.streamCancelled.withLock { $0 }
            }
            client.close()
            await server.stop()
        }
    }

    @Test func streamFailingBeforeItsFirstMessageThrowsTheStatus() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let stream = client.serverStreaming(
                method: .init(service: "test.Client", method: "Missing"), request: ClientTestText(),
                responseType: ClientTestText.self)
            let error = await #expect(throws: RPCError.self) { for try await _ in stream {} }
            #expect(error?.code == .unimplemented)
            client.close()
            await server.stop()
        }
    }
}
