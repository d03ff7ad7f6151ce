import Testing
@testable import KindredRPC

@Suite struct ClientResponseReaderTests {
    let okHeaders: [(name: String, value: String)] = [
        (":status", "200"), ("content-type", "application/grpc"), ("x-one", "1"),
    ]

    func framed(_ payload: [UInt8], compressed: Bool = false) -> [UInt8] {
        var buffer: [UInt8] = []
        MessageDeframer.frame(payload, compressed: compressed, into: &buffer)
        return buffer
    }

    @Test func messagesSplitAcrossChunksAreReassembled() {
        var reader = ClientResponseReader(maxMessageSize: 100)
        #expect(reader.handle(.headers(okHeaders)) == .messages([]))
        #expect(reader.headers["x-one"] == "1")
        let bytes = framed([1, 2, 3]) + framed([4])
        #expect(reader.handle(.data(Array(bytes[0..<6]))) == .messages([]))
        #expect(reader.handle(.data(Array(bytes[6...]))) == .messages([[1, 2, 3], [4]]))
        #expect(reader.handle(.trailers([("grpc-status", "0")])) == .finished(nil))
        #expect(reader.handle(.closed(.finished)) == .messages([]))
    }

    @Test func gzipMessagesAreInflated() {
        var reader = ClientResponseReader(maxMessageSize: 100)
        _ = reader.handle(.headers(okHeaders + [("grpc-encoding", "gzip")]))
        let step = reader.handle(.data(framed(MessageEncoding.gzip([7, 7, 7]), compressed: true)))
        #expect(step == .messages([[7, 7, 7]]))
    }

    @Test func errorStatusCarriesMessageDetailsAndTrailers() {
        var reader = ClientResponseReader(maxMessageSize: 100)
        let details: [ErrorDetail] = [
            .errorInfo(reason: "PARENTAL_CONTROLS", domain: "kindred", metadata: ["a": "b"]),
            .badRequest([.init(field: "name", description: "empty")]),
            .retryInfo(retryDelay: .milliseconds(1500)),
        ]
        var trailerMetadata = Metadata()
        trailerMetadata.add("x-why", "because")
        let trailers = StatusTrailers.fields(
            code: .permissionDenied, message: "nope 100% ✋", details: details, metadata: trailerMetadata)
        _ = reader.handle(.headers(okHeaders))
        let expected = RPCError(.permissionDenied, "nope 100% ✋", details: details, trailers: trailerMetadata)
        #expect(reader.handle(.trailers(trailers)) == .finished(expected))
    }

    @Test func trailersOnlyResponseEndsTheCall() {
        var reader = ClientResponseReader(maxMessageSize: 100)
        let step = reader.handle(
            .headers([(":status", "200"), ("content-type", "application/grpc"), ("grpc-status", "12")]))
        #expect(step == .finished(RPCError(.unimplemented)))
    }

    @Test(arguments: [
        ("404", StatusCode.unimplemented), ("503", .unavailable), ("401", .unauthenticated),
        ("500", .unknown),
    ])
    func httpErrorsMapToGRPCStatus(status: String, code: StatusCode) {
        var reader = ClientResponseReader(maxMessageSize: 100)
        guard case .abort(let error) = reader.handle(.headers([(":status", status)])) else {
            Issue.record("expected abort")
            return
        }
        #expect(error.code == code)
    }

    @Test func oversizedMessageIsResourceExhausted() {
        var reader = ClientResponseReader(maxMessageSize: 2)
        _ = reader.handle(.headers(okHeaders))
        guard case .abort(let error) = reader.handle(.data(framed([1, 2, 3]))) else {
            Issue.record("expected abort")
            return
        }
        #expect(error.code == .resourceExhausted)
    }

    @Test(arguments: [
        (HTTP2StreamClosure.refused, StatusCode.unavailable), (.connectionLost, .unavailable),
        (.finished, .internal), (.reset(errorCode: 8), .cancelled), (.reset(errorCode: 2), .internal),
    ])
    func streamEndWithoutTrailersIsAnError(closure: HTTP2StreamClosure, code: StatusCode) {
        var reader = ClientResponseReader(maxMessageSize: 100)
        _ = reader.handle(.headers(okHeaders))
        guard case .finished(let error?) = reader.handle(.closed(closure)) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.code == code)
    }

    @Test func trailersInsideAMessageAreAnError() {
        var reader = ClientResponseReader(maxMessageSize: 100)
        _ = reader.handle(.headers(okHeaders))
        _ = reader.handle(.data([0, 0, 0, 0, 9, 1]))
        guard case .finished(let error?) = reader.handle(.trailers([("grpc-status", "0")])) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.code == .internal)
    }
}

@Suite struct ClientTimeoutEncodingTests {
    @Test(arguments: [
        (Duration.milliseconds(10_000), "10000000u"), (.seconds(10), "10000000u"), (.nanoseconds(1), "1n"),
        (.seconds(500), "500000m"), (.seconds(200_000), "200000S"), (.zero, "1n"), (.seconds(-3), "1n"),
    ])
    func durationIsEncodedInAtMostEightDigits(duration: Duration, expected: String) {
        #expect(GRPCTimeout.encode(duration) == expected)
        #expect(GRPCTimeout.parse(expected) != nil)
    }

    @Test func encodedTimeoutNeverShortensTheDeadline() {
        let duration = Duration.nanoseconds(123_456_789_123)
        #expect(GRPCTimeout.parse(GRPCTimeout.encode(duration))! >= duration)
    }
}
