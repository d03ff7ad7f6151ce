import Glibc
import KindredTestSupport
import Logging
import Testing
@testable import KindredRPC

/// Frames that move no call forward, sent without end, cost a core each before the server counted them.
@Suite struct FrameFloodTests {
    let probe = Probe()
    static let limit = 50

    enum Flood: String, CaseIterable, CustomTestStringConvertible {
        case emptyData, tinyWindowUpdate, priority, ping, settings, unknownFrameType, dataForAStreamThatIsGone
        case reset

        var testDescription: String { rawValue }

        /// One frame of this flood; DATA and PRIORITY go to `stream`, which is open.
        func frame(stream: Int32) -> RawFrame {
            switch self {
            case .emptyData: RawFrame(type: 0, streamID: stream)
            case .tinyWindowUpdate: RawFrame(type: 8, payload: [0, 0, 0, 1])
            case .priority: RawFrame(type: 2, streamID: stream, payload: [0, 0, 0, 0, 15])
            case .ping: RawFrame(type: RawFrame.ping, payload: [UInt8](repeating: 1, count: 8))
            case .settings: RawFrame(type: 4)
            case .unknownFrameType: RawFrame(type: 0xEE)
            case .dataForAStreamThatIsGone: RawFrame(type: 0, streamID: 1)
            case .reset: RawFrame.reset(streamID: stream)
            }
        }

        /// The kind the flood's warning names.
        var kind: String {
            switch self {
            case .emptyData: "empty_data"
            case .tinyWindowUpdate: "window_update"
            case .priority: "priority"
            case .ping: "ping"
            case .settings: "settings"
            case .unknownFrameType: "unknown_type"
            case .dataForAStreamThatIsGone: "data_for_a_stream_that_is_gone"
            case .reset: "rst_stream"
            }
        }
    }

    @Test(arguments: Flood.allCases)
    func floodOfFramesWithoutProgressEndsTheConnectionWithEnhanceYourCalm(_ flood: Flood) async throws {
        let log = CapturedLog(level: .info)
        try await withServer(
            [TestService(probe: probe)],
            configure: {
                $0.maxFramesWithoutProgress = Self.limit
                // The neighbour below comes from the flooder's address (AttackCostTests has it refused).
                $0.floodCooling = .zero
            }, log: log
        ) { server in
            // nghttp2 writes the preface and opens a stream; from then on the test speaks raw frames.
            let client = try HTTP2TestClient(port: server.port)
            let finished = client.start(path: TestService.path("Echo"), body: grpcFrames([1]))
            let stream = client.start(path: TestService.path("Sleep"), body: [], endStream: false)
            client.flush()
            let reader = RawFrameReader(fd: client.fd)
            #expect(
                reader.read { $0.streamID == finished && $0.flags & 1 != 0 } != nil,
                "Echo answered and closed")
            let frame = flood.frame(stream: stream).bytes

            // Just under the limit the connection still answers: a PING comes back acknowledged.
            let alive = RawFrame(type: RawFrame.ping, payload: Array("alive?!!".utf8))
            #expect(
                writeAll(
                    client.fd, Array(repeating: frame, count: Self.limit - 5).flatMap { $0 } + alive.bytes))
            let acknowledged = reader.read { $0.type == RawFrame.ping && $0.payload == alive.payload }
            #expect(acknowledged != nil)
            #expect(!reader.frames.contains { $0.type == RawFrame.goAway })

            writeAll(client.fd, Array(repeating: frame, count: 10).flatMap { $0 })
            let goAway = reader.read { $0.type == RawFrame.goAway }
            #expect(goAway?.goAwayErrorCode == 11, "ENHANCE_YOUR_CALM")
            reader.readToEnd()
            #expect(reader.peerClosed)

            let neighbour = try HTTP2TestClient(port: server.port)
            #expect(neighbour.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
        }
        Self.expectOneFloodWarning(in: log, kind: flood.kind)
    }

    /// One warning for the flood, naming the peer and the kind of frame that tipped it.
    static func expectOneFloodWarning(in log: CapturedLog, kind: String) {
        let warnings = log.lines.filter { $0.level >= .warning }
        #expect(warnings.count == 1, "\(warnings)")
        let warning = warnings.first
        #expect(warning?.message == "closing a connection that flooded frames without progress")
        #expect(warning?.fields["peer"]?.hasPrefix("ipv4:127.0.0.1:") == true)
        #expect(warning?.fields["kind"] == kind)
    }

    @Test func framesThatCarryProgressAreNotCounted() async throws {
        try await withServer(
            [TestService(probe: probe)], configure: { $0.maxFramesWithoutProgress = 5 }
        ) { server in
            let client = try HTTP2TestClient(port: server.port)
            for index in 0..<50 {
                let response = client.call(path: TestService.path("Echo"), body: grpcFrames([UInt8(index)]))
                #expect(response.grpcStatus == 0)
            }
            // Many at once, so that a stream's HEADERS and DATA arrive in one read.
            let ids = (0..<50).map {
                client.start(path: TestService.path("Echo"), body: grpcFrames([UInt8($0)]))
            }
            client.run { ids.allSatisfy { client.responses[$0]?.closed == true } }
            #expect(ids.allSatisfy { client.responses[$0]?.grpcStatus == 0 })
            #expect(!client.goAwayReceived)
        }
    }
}
