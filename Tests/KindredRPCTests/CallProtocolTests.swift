import KindredMessages
import Testing
@testable import KindredRPC

@Suite struct CallProtocolTests {
    @Test func statusTrailersCarryCodeMessageDetailsAndMetadata() {
        let fields = StatusTrailers.fields(
            code: .notFound, message: "no 100%", details: [.retryInfo(retryDelay: .seconds(2))],
            metadata: Metadata(["x-extra": "1"]))
        #expect(fields.map(\.name) == ["grpc-status", "grpc-message", "grpc-status-details-bin", "x-extra"])
        #expect(fields[0].value == "5")
        #expect(fields[1].value == "no 100%25")
    }

    @Test func okStatusHasNoMessageField() {
        #expect(
            StatusTrailers.fields(code: .ok, message: "", details: [], metadata: Metadata()).map(\.name) == [
                "grpc-status"
            ])
    }

    @Test(arguments: [
        ErrorDetail.errorInfo(
            reason: "PARENTAL_CONTROLS", domain: "kindred.family", metadata: ["child": "c1"]),
        .badRequest([
            .init(field: "name", description: "empty"), .init(field: "age", description: "under 13"),
        ]),
        .retryInfo(retryDelay: .seconds(30) + .milliseconds(250)),
    ])
    func statusDetailsRoundTripThroughAGoogleRpcStatus(detail: ErrorDetail) throws {
        let bytes = try #require(
            StatusDetails.encode(code: .invalidArgument, message: "bad", details: [detail]))
        let status = try Google_Rpc_Status(serializedBytes: bytes)
        #expect(status.code == 3)
        #expect(status.message == "bad")
        #expect(status.details.first?.typeURL.hasPrefix("type.googleapis.com/google.rpc.") == true)
        #expect(StatusDetails.decode(bytes) == [detail])
    }

    @Test func detailsWithANulCharacterAreLeftOut() {
        let fields = StatusTrailers.fields(
            code: .internal, message: "x",
            details: [.errorInfo(reason: "a\u{0}b", domain: "", metadata: [:])],
            metadata: Metadata())
        #expect(!fields.contains { $0.name == "grpc-status-details-bin" })
    }

    private func head(_ fields: [(String, String)]) -> RequestHead {
        var head = RequestHead()
        for (name, value) in fields {
            let nameBytes = Array(name.utf8)
            let valueBytes = Array(value.utf8)
            nameBytes.withUnsafeBufferPointer { name in
                valueBytes.withUnsafeBufferPointer { value in head.add(name: name, value: value, limit: 1000)
                }
            }
        }
        return head
    }

    @Test func validGRPCRequestHeadParses() throws {
        let parsed = head([
            (":method", "POST"), (":path", "/a.B/C"), ("content-type", "application/grpc+proto"),
            ("grpc-timeout", "5S"), ("grpc-encoding", "gzip"), ("x-user", "u1"), ("te", "trailers"),
        ])
        #expect(try parsed.validate(limit: 1000).get() == .gzip)
        #expect(parsed.path == "/a.B/C")
        #expect(parsed.timeout == .seconds(5))
        #expect(parsed.metadata.map(\.key) == ["x-user"])
    }

    @Test(arguments: [
        (
            [(":method", "POST"), ("content-type", "application/json")],
            RequestHead.Rejection.http(status: 415)
        ),
        ([(":method", "POST"), ("content-type", "application/grpcx")], .http(status: 415)),
        ([(":method", "GET"), ("content-type", "application/grpc")], .http(status: 405)),
        (
            [(":method", "POST"), ("content-type", "application/grpc"), ("grpc-encoding", "br")],
            .status(.unimplemented, "grpc-encoding br is not supported")
        ),
        (
            [(":method", "POST"), ("content-type", "application/grpc"), ("grpc-timeout", "soon")],
            .status(.invalidArgument, "malformed grpc-timeout")
        ),
    ])
    func badRequestHeadsAreRejected(fields: [(String, String)], rejection: RequestHead.Rejection) {
        #expect(head(fields).validate(limit: 1000) == .failure(rejection))
    }

    @Test func oversizedHeaderListIsResourceExhausted() {
        let parsed = head([(":method", "POST"), ("x-big", String(repeating: "a", count: 2000))])
        guard case .failure(.status(let code, _)) = parsed.validate(limit: 1000) else {
            Issue.record("expected a status rejection")
            return
        }
        #expect(code == .resourceExhausted)
    }
}
