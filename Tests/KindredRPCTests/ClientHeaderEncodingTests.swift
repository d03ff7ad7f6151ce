import CNGHTTP2
import Testing

@testable import KindredRPC

/// How a client call's headers reach the wire: the fixed ones built once a client, the per-attempt
/// `grpc-timeout` after them and never indexed, and the output gathered without a list of its own.
@Suite struct ClientHeaderEncodingTests {
    @Test func aCallsTimeoutFollowsItsHeadersAndIsNeverIndexed() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer()
        let token = "Bearer " + String(repeating: "eyJhbGciOiJFZERTQSJ9.", count: 32)
        let headers = requestHeaders + [("authorization", token), ("x-note", "crème brûlée")]
        var ids: [Int32] = []
        for remaining in [1999, 1998, 1997] {
            let block = HeaderBlock(headers, last: ("grpc-timeout", "\(remaining)m"))
            ids.append(try client.startStream(headers: block, body: HTTP2RequestBody([]), onEvent: { _ in }))
        }
        try exchange(client, peer)
        for (id, remaining) in zip(ids, [1999, 1998, 1997]) {
            let received = try #require(peer.requests[id]?.headers)
            #expect(received.map(\.name) == headers.map(\.name) + ["grpc-timeout"])
            #expect(received.map(\.value) == headers.map(\.value) + ["\(remaining)m"])
            // nghttp2 never indexes authorization of its own; the timeout is never indexed as we ask.
            #expect(peer.neverIndexed[id] == ["authorization", "grpc-timeout"])
        }
    }

    @Test func aClientsRequestHeadersKeepTheirOrderAroundTheFixedOnes() throws {
        let client = try RPCClient(target: "127.0.0.1:9", configuration: .tests)
        defer { client.close() }
        let options = CallOptions(metadata: Metadata(["authorization": "Bearer t", "x-bad": "tab\there"]))
        let headers = client.requestHeaders(
            method: MethodDescriptor(service: "pkg.Svc", method: "Method"), options: options)
        #expect(
            headers.map(\.name) == [
                ":method", ":scheme", ":path", ":authority", "content-type", "te", "user-agent",
                "grpc-accept-encoding", "authorization",
            ])
        #expect(headers[2].value == "/pkg.Svc/Method")
        #expect(headers[3].value == "127.0.0.1:9")
    }

    @Test func gatheredOutputIsWhatNghttp2Queued() throws {
        let whole = HTTP2ClientSession(), gathered = HTTP2ClientSession()
        let body = (0..<40_000).map { UInt8(truncatingIfNeeded: $0) }
        for session in [whole, gathered] {
            _ = try session.startStream(headers: requestHeaders, body: body, onEvent: { _ in })
        }
        // A buffer smaller than most frames: they go on their own, the small ones gathered.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        var written: [UInt8] = [], writes = 0
        try gathered.sendPending(gatheringIn: buffer) { bytes, count in
            written.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
            writes += 1
            return true
        }
        #expect(written == (try whole.pendingOutput()))
        #expect(writes > 1)
    }

    @Test func gatheringStopsWhenTheSocketFails() throws {
        let session = HTTP2ClientSession()
        _ = try session.startStream(headers: requestHeaders, body: Array(repeating: 7, count: 40_000)) { _ in
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        var writes = 0
        try session.sendPending(gatheringIn: buffer) { _, _ in
            writes += 1
            return false
        }
        #expect(writes == 1)
    }
}
