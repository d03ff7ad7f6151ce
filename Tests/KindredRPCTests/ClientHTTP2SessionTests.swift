import CNGHTTP2
import Testing
@testable import KindredRPC

/// Collects one stream's events in order.
final class StreamRecorder {
    var events: [String] = []
    var closure: HTTP2StreamClosure?
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var trailers: [(name: String, value: String)] = []

    func record(_ event: HTTP2ClientStreamEvent) {
        switch event {
        case .headers(let block): events.append("headers"); headers = block
        case .data(let bytes): events.append("data"); body += bytes
        case .trailers(let block): events.append("trailers"); trailers = block
        case .closed(let how): events.append("closed"); closure = how
        }
    }
}

let requestHeaders: [(name: String, value: String)] = [
    (":method", "POST"), (":scheme", "http"), (":path", "/pkg.Svc/Method"), (":authority", "peer:1"),
    ("content-type", "application/grpc"), ("te", "trailers"),
]

@Suite struct ClientHTTP2SessionTests {
    @Test func requestAndResponseWithTrailersArriveInOrder() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        let id = try client.startStream(
            headers: requestHeaders, body: [0, 0, 0, 0, 2, 8, 1], onEvent: recorder.record)
        try exchange(client, peer)
        #expect(peer.completed == [id])
        #expect(peer.requests[id]?.body == [0, 0, 0, 0, 2, 8, 1])
        #expect(peer.requests[id]?.headers.first { $0.name == ":path" }?.value == "/pkg.Svc/Method")

        peer.respond(id, headers: [(":status", "200")], body: [1, 2, 3], trailers: [("grpc-status", "0")])
        try exchange(client, peer)
        #expect(recorder.events == ["headers", "data", "trailers", "closed"])
        #expect(recorder.body == [1, 2, 3])
        #expect(recorder.trailers.map(\.name) == ["grpc-status"])
        #expect(recorder.closure == .finished)
        #expect(client.streams.isEmpty)
    }

    @Test func trailersOnlyResponseIsReportedAsHeaders() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        let id = try client.startStream(headers: requestHeaders, body: [], onEvent: recorder.record)
        try exchange(client, peer)
        peer.respond(id, headers: [(":status", "200"), ("grpc-status", "12")])
        try exchange(client, peer)
        #expect(recorder.events == ["headers", "closed"])
        #expect(recorder.headers.contains { $0 == ("grpc-status", "12") })
    }

    @Test func largeRequestBodyIsSentWhole() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        let body = (0..<60_000).map { UInt8(truncatingIfNeeded: $0) }
        let id = try client.startStream(headers: requestHeaders, body: body, onEvent: recorder.record)
        try exchange(client, peer)
        #expect(peer.requests[id]?.body == body)
        #expect(peer.completed == [id])
    }

    @Test func cancellingSendsRSTStreamCancel() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        let id = try client.startStream(headers: requestHeaders, body: [1], onEvent: recorder.record)
        try exchange(client, peer)
        client.cancelStream(id)
        try exchange(client, peer)
        #expect(peer.resetCodes[id] == NGHTTP2_CANCEL.rawValue)
        #expect(recorder.closure == .reset(errorCode: NGHTTP2_CANCEL.rawValue))
    }

    @Test(arguments: [
        (NGHTTP2_REFUSED_STREAM.rawValue, HTTP2StreamClosure.refused),
        (NGHTTP2_INTERNAL_ERROR.rawValue, .reset(errorCode: NGHTTP2_INTERNAL_ERROR.rawValue)),
    ])
    func peerResetIsClassified(code: UInt32, expected: HTTP2StreamClosure) throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        let id = try client.startStream(headers: requestHeaders, body: [1], onEvent: recorder.record)
        try exchange(client, peer)
        peer.reset(id, errorCode: code)
        try exchange(client, peer)
        #expect(recorder.closure == expected)
    }

    @Test func goAwayRefusesStreamsAboveLastStreamIDAndFinishesTheRest() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer()
        let first = StreamRecorder(), second = StreamRecorder()
        let id1 = try client.startStream(headers: requestHeaders, body: [1], onEvent: first.record)
        _ = try client.startStream(headers: requestHeaders, body: [2], onEvent: second.record)
        try exchange(client, peer)
        peer.goAway(lastStreamID: id1)
        try exchange(client, peer)
        #expect(second.closure == .refused)
        #expect(!client.canOpenStreams)
        #expect(throws: HTTP2SessionError.self) {
            try client.startStream(headers: requestHeaders, body: [], onEvent: { _ in })
        }
        peer.respond(id1, headers: [(":status", "200")], body: [9], trailers: [("grpc-status", "0")])
        try exchange(client, peer)
        #expect(first.closure == .finished)
    }

    @Test func streamsBeyondPeerConcurrencyLimitWaitForASiblingToClose() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(maxConcurrentStreams: 2)
        try exchange(client, peer)
        #expect(client.peerMaxConcurrentStreams == 2)
        let recorders = (0..<3).map { _ in StreamRecorder() }
        let ids = try recorders.map {
            try client.startStream(headers: requestHeaders, body: [1], onEvent: $0.record)
        }
        try exchange(client, peer)
        #expect(peer.completed == Array(ids.prefix(2)))
        peer.respond(ids[0], headers: [(":status", "200")], body: [1], trailers: [("grpc-status", "0")])
        try exchange(client, peer)
        #expect(peer.completed == ids)
    }

    @Test func lostConnectionEndsEveryOpenStream() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer()
        let recorders = [StreamRecorder(), StreamRecorder()]
        for recorder in recorders {
            _ = try client.startStream(headers: requestHeaders, body: [1], onEvent: recorder.record)
        }
        try exchange(client, peer)
        client.failAllStreams()
        #expect(recorders.map(\.closure) == [.connectionLost, .connectionLost])
    }

    /// A server's first bytes are its SETTINGS, written before it reads a request: a connection reset before
    /// them (a listener closed with it still in the accept queue) processed nothing, and its calls may go again.
    @Test func aConnectionLostBeforeTheServersFirstBytesEndsItsStreamsUnprocessed() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        _ = try client.startStream(headers: requestHeaders, body: [1], onEvent: recorder.record)
        peer.receive(try client.pendingOutput())
        #expect(peer.completed.count == 1, "the request went out whole")
        client.failAllStreams()
        #expect(recorder.closure == .refused)
    }

    @Test func garbageFromThePeerEndsTheSession() throws {
        let client = HTTP2ClientSession()
        _ = try client.pendingOutput()
        try Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8).withUnsafeBytes { try client.receive($0) }
        let goAway = try client.pendingOutput()
        #expect(goAway.count >= 9 && goAway[3] == UInt8(NGHTTP2_GOAWAY.rawValue))
        #expect(!client.isAlive)
    }
}

@Suite struct ClientHTTP2SessionShutdownTests {
    @Test func goAwayLetsOpenStreamsFinishThenEndsTheSession() throws {
        let client = HTTP2ClientSession(), peer = ClientHTTP2TestPeer(), recorder = StreamRecorder()
        let id = try client.startStream(headers: requestHeaders, body: [1], onEvent: recorder.record)
        try exchange(client, peer)
        client.goAway()
        try exchange(client, peer)
        #expect(client.isAlive)
        #expect(!client.canOpenStreams)
        peer.respond(id, headers: [(":status", "200")], body: [1], trailers: [("grpc-status", "0")])
        try exchange(client, peer)
        #expect(recorder.closure == .finished)
        #expect(!client.isAlive)
    }
}
