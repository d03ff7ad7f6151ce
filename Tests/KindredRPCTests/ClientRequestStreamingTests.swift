@testable import KindredRPC
import KindredTestSupport
import Synchronization
import Testing

/// Client-streaming calls from `RPCClient` against `test.Upload` on a real server.
@Suite(.timeLimit(.minutes(1))) struct ClientRequestStreamingTests {
    @Test func manyMessagesArriveInOrderAndOneResponseComesBack() async throws {
        try await withUploadServer { server, client in
            // Sizes from 1 byte to 64 KiB: about 8 MB in all, far past every flow-control window.
            let texts = (0..<500).map { String(repeating: "a", count: 1 + ($0 * 7919) % 32_768) }
            let response: ClientTestText = try await client.clientStreaming(
                method: ClientUploadTestService.method("Sum")
            ) { writer in
                for text in texts { try await writer.write(ClientTestText(text)) }
            }
            #expect(response.text == "500,\(texts.reduce(0) { $0 + $1.utf8.count })")
        }
    }

    @Test func anEmptyStreamStillGetsTheResponse() async throws {
        try await withUploadServer { server, client in
            let response: ClientTestText = try await client.clientStreaming(
                method: ClientUploadTestService.method("Sum")
            ) { (_: ClientRequestWriter<ClientTestText>) in }
            #expect(response.text == "0,0")
        }
    }

    @Test func aServerRefusingMidStreamStopsTheWriterWithItsStatus() async throws {
        try await withUploadServer { server, client in
            let writeFailure = Mutex<RPCError?>(nil)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.clientStreaming(
                    method: ClientUploadTestService.method("Sum")
                ) { writer in
                    do {
                        try await writer.write(ClientTestText("first"))
                        try await writer.write(ClientTestText("refuse"))
                        // The server reads no more: these fill the window until the refusal arrives.
                        for _ in 0..<10_000 {
                            try await writer.write(ClientTestText(String(repeating: "b", count: 1024)))
                        }
                    } catch {
                        writeFailure.withLock { $0 = error as? RPCError }
                        throw error
                    }
                }
            }
            #expect(error == ClientUploadTestService.refused)
            #expect(writeFailure.withLock { $0 } == ClientUploadTestService.refused)
        }
    }

    @Test func aServerThatAnswersEarlyEndsTheUploadWithItsResponse() async throws {
        try await withUploadServer { server, client in
            var writes = 0
            let response: ClientTestText = try await client.clientStreaming(
                method: ClientUploadTestService.method("First")
            ) { writer in
                // Far past the windows: these would wait forever if the answer did not end the upload.
                for index in 0..<1_000 {
                    try await writer.write(
                        ClientTestText(index == 0 ? "first" : String(repeating: "e", count: 16_384)))
                    writes += 1
                }
            }
            #expect(response.text == "first")
            #expect(writes == 1_000)  // the writes after the answer were dropped, not failed
        }
    }

    @Test func aProducerThatFailsCancelsTheCallAndKeepsItsErrorAsTheCause() async throws {
        struct DiskGone: Error {}
        try await withUploadServer { server, client in
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.clientStreaming(
                    method: ClientUploadTestService.method("Sum")
                ) { writer in
                    try await writer.write(ClientTestText("part"))
                    throw DiskGone()
                }
            }
            #expect(error?.code == .cancelled)
            #expect(error?.cause is DiskGone)
        }
    }

    @Test func theDeadlineEndsAnUploadTheServerIsNotReading() async throws {
        try await withUploadServer { server, client in
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.clientStreaming(
                    method: ClientUploadTestService.method("SumLater"),
                    options: CallOptions(timeout: .milliseconds(300))
                ) { writer in
                    for _ in 0..<1_000 {
                        try await writer.write(ClientTestText(String(repeating: "c", count: 16_384)))
                    }
                }
            }
            #expect(error?.code == .deadlineExceeded)
        }
    }

    @Test func cancellingTheTaskCancelsAnUploadWaitingForWindow() async throws {
        try await withUploadServer { server, client in
            let probe = UploadProbe()
            let upload = Task(executorPreference: clientTestLoop) {
                try await probe.writeBlocks(to: client, method: "SumLater", count: 1_000)
            }
            try await eventually("the upload waits for window") { probe.isAwaitingWindow }
            upload.cancel()
            let error = await #expect(throws: RPCError.self) { try await upload.value }
            #expect(error?.code == .cancelled)
        }
    }

    @Test func aServerThatDoesNotReadSuspendsTheWriterInsteadOfBuffering() async throws {
        try await withUploadServer { server, client in
            let probe = UploadProbe()
            let upload = Task(executorPreference: clientTestLoop) {
                try await probe.writeBlocks(to: client, method: "SumLater", count: 400)
            }
            try await eventually("the upload waits for window") { probe.isAwaitingWindow }
            // Queued so far: what the server's stream window took (65,535 bytes, never returned while the
            // handler does not read), the client's buffer, and the one message being written.
            let queued = (probe.written.load(ordering: .relaxed) + 1) * UploadProbe.framedBlockSize
            #expect(queued <= 65_535 + ClientCall.requestBufferLimit + UploadProbe.framedBlockSize)
            server.observations.upload.open()
            let response = try await upload.value
            #expect(response.text == "400,\(400 * UploadProbe.blockSize)")
            #expect(probe.written.load(ordering: .relaxed) == 400)
        }
    }

    /// An upload is throttled as a unary call is (`ClientThrottle`): past k calls per one the server accepts, the
    /// client refuses it before its messages are even made.
    @Test func aThrottledClientRefusesAnUploadBeforeMakingItsMessages() async throws {
        var configuration = ClientConfiguration.tests
        configuration.throttle = ClientThrottle.Settings(k: 2)
        try await withUploadServer(configuration) { server, client in
            var produced = 0
            var throttled = 0
            for _ in 0..<40 {
                do throws(RPCError) {
                    let _: ClientTestText = try await client.clientStreaming(
                        method: ClientUploadTestService.method("Sum")
                    ) { writer in
                        produced += 1
                        try await writer.write(ClientTestText("busy"))
                    }
                } catch  where error == .throttledByClient(retryAfter: .milliseconds(250)) {
                    throttled += 1
                } catch {
                    #expect(error == .serverOverloaded(retryAfter: .milliseconds(250)))
                }
            }
            #expect(throttled > 0 && produced + throttled == 40, "\(produced) made, \(throttled) throttled")
        }
    }

    private func withUploadServer(
        _ configuration: ClientConfiguration = .tests,
        _ body: (ClientTestServer, RPCClient) async throws -> Void
    ) async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: configuration)
            try await body(server, client)
            client.close()
            await server.stop()
        }
    }
}

/// Writes blocks to an upload and lets the test see how far it got and whether it waits for window.
private final class UploadProbe: Sendable {
    static let blockSize = 16_384
    static let framedBlockSize = blockSize + 5

    let writer = Mutex<ClientRequestWriter<ClientTestText>?>(nil)
    let written = Atomic<Int>(0)

    /// Read on the call's loop (the test's): whether the writer is suspended on a full window.
    var isAwaitingWindow: Bool { writer.withLock { $0?.call.isAwaitingWindow ?? false } }

    /// Writes `count` blocks of `blockSize` bytes to `test.Upload/<method>`.
    func writeBlocks(to client: RPCClient, method: String, count: Int) async throws -> ClientTestText {
        try await client.clientStreaming(method: ClientUploadTestService.method(method)) {
            (upload: ClientRequestWriter<ClientTestText>) in
            writer.withLock { $0 = upload }
            for _ in 0..<count {
                try await upload.write(ClientTestText(String(repeating: "d", count: Self.blockSize)))
                written.add(1, ordering: .relaxed)
            }
        }
    }
}
