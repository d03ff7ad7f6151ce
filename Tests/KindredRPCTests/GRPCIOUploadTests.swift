import Foundation
import KindredRPC
import KindredTestSupport
import Testing

/// `RPCClient`'s client-streaming calls against grpcio's server (Python, from `KINDRED_TEST_PYTHON`): the
/// same bytes, flow control and statuses a stock gRPC server speaks, not only Kindred's own.
@Suite(.timeLimit(.minutes(1))) struct GRPCIOUploadTests {
    @Test func anUploadOfManyMessagesIsSummedByGrpcio() async throws {
        try await withGrpcioServer { client in
            // About 6 MB: far past grpcio's windows, so the client must wait for its WINDOW_UPDATEs.
            let texts = (0..<400).map { String(repeating: "g", count: 1 + ($0 * 7919) % 32_768) }
            let response: ClientTestText = try await client.clientStreaming(
                method: ClientUploadTestService.method("Sum")
            ) { writer in
                for text in texts { try await writer.write(ClientTestText(text)) }
            }
            #expect(response.text == "400,\(texts.reduce(0) { $0 + $1.utf8.count })")
            let empty: ClientTestText = try await client.clientStreaming(
                method: ClientUploadTestService.method("Sum")
            ) { (_: ClientRequestWriter<ClientTestText>) in }
            #expect(empty.text == "0,0")
        }
    }

    @Test func grpciosRefusalMidStreamReachesTheWriterAndTheCaller() async throws {
        try await withGrpcioServer { client in
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.clientStreaming(
                    method: ClientUploadTestService.method("Sum")
                ) { writer in
                    try await writer.write(ClientTestText("refuse"))
                    for _ in 0..<10_000 {
                        try await writer.write(ClientTestText(String(repeating: "h", count: 1024)))
                    }
                }
            }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message == "This upload was refused.")
        }
    }

    /// `test.Upload/Sum` as `ClientUploadTestService` answers it, on raw bytes (no generated stubs).
    private static let server = """
        import grpc
        from concurrent import futures
        \(LoopbackServerProcess.pythonAnnouncePort)
        def upload_sum(requests, context):
            count = total = 0
            for request in requests:
                if request == b"refuse":
                    context.abort(grpc.StatusCode.FAILED_PRECONDITION, "This upload was refused.")
                count, total = count + 1, total + len(request)
            return f"{count},{total}".encode()
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
            "test.Upload", {"Sum": grpc.stream_unary_rpc_method_handler(upload_sum)}),))
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        announce_port(port)
        server.wait_for_termination()
        """

    private func withGrpcioServer(_ body: (RPCClient) async throws -> Void) async throws {
        let python = try testPython(peer: "Python's grpcio")
        let directory = try temporaryDirectory("kindred-grpcio")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await LoopbackServerProcess(
            [python, "-c", Self.server], log: directory + "/server.log")
        defer { server.stop() }
        try await onClientTestLoop {
            let client = try RPCClient(target: "127.0.0.1:\(server.port)", configuration: .tests)
            defer { client.close() }
            try await body(client)
        }
    }
}
