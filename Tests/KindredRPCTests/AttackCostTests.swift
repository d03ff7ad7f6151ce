import Glibc
import KindredMetrics
import KindredTestSupport
import Logging
import Testing
@testable import KindredRPC

/// What an attacker's frames cost the server and its other clients: a stream reset in the read that opened
/// it runs nothing and writes no line, and the floods nghttp2 would cut on its own (at the default limits)
/// end with ENHANCE_YOUR_CALM and one warning, like every other.
@Suite(.timeLimit(.minutes(1))) struct AttackCostTests {
    let probe = Probe()

    /// A client whose nghttp2 session has shaken hands and answered one call; from then on the test writes
    /// raw frames on its socket, on streams from 101 up.
    static func rawClient(port: Int) throws -> (HTTP2TestClient, RawFrameReader) {
        let client = try HTTP2TestClient(port: port)
        #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
        return (client, RawFrameReader(fd: client.fd))
    }

    @Test func aCallResetInTheReadThatOpenedItRunsNothingAndWritesNoLine() async throws {
        let log = CapturedLog(level: .info)
        let registry = MetricsRegistry()
        var metrics = ""
        let calls = 100
        try await withServer([TestService(probe: probe)], log: log) { server in
            server.registerMetrics(in: registry)
            let (client, reader) = try Self.rawClient(port: server.port)
            // Sleep's handler starts once its message is complete, and records that it ran.
            var bytes: [UInt8] = []
            for index in 0..<Int32(calls) {
                let stream = 101 + 2 * index
                bytes += RawFrame.request(streamID: stream, path: TestService.path("Sleep")).bytes
                bytes += RawFrame(type: 0, flags: 1, streamID: stream, payload: grpcFrames([1])).bytes
                bytes += RawFrame.reset(streamID: stream).bytes
            }
            let ping = RawFrame(type: RawFrame.ping, payload: Array("resets?!".utf8))
            // One write of a few KB over loopback arrives in one read; the PING's answer comes after the rest.
            #expect(writeAll(client.fd, bytes + ping.bytes))
            #expect(reader.read { $0.type == RawFrame.ping && $0.payload == ping.payload } != nil)
            #expect(!reader.frames.contains { $0.type == RawFrame.goAway })

            let neighbour = try HTTP2TestClient(port: server.port)
            #expect(neighbour.call(path: TestService.path("Echo"), body: grpcFrames([2])).grpcStatus == 0)
            metrics = String(decoding: await registry.render().bytes, as: UTF8.self)
        }
        #expect(probe.count("sleep-without-deadline") == 0, "no handler started")
        #expect(log.lines("call").map { $0.fields["status"] } == ["OK", "OK"], "no line for a reset call")
        #expect(log.lines("access lines summarized").isEmpty, "nor a summary")
        #expect(metrics.contains("kindred_rpc_streams_reset_before_start_total \(calls)"))
    }

    /// nghttp2 once cut a SETTINGS flood itself (more than 1,000 acknowledgements queued) by closing the
    /// socket: no GOAWAY, no line.
    @Test func aSettingsFloodAtTheDefaultLimitEndsWithEnhanceYourCalmAndOneWarning() async throws {
        let log = CapturedLog(level: .info)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let (client, reader) = try Self.rawClient(port: server.port)
            let limit = ServerConfiguration(host: "127.0.0.1", port: 0).maxFramesWithoutProgress
            writeAll(client.fd, Array(repeating: RawFrame(type: 4).bytes, count: limit + 200).flatMap { $0 })
            #expect(reader.read { $0.type == RawFrame.goAway }?.goAwayErrorCode == 11, "ENHANCE_YOUR_CALM")
        }
        FrameFloodTests.expectOneFloodWarning(in: log, kind: "settings")
    }

    /// nghttp2 refuses a SETTINGS frame of more than 32 entries with ENHANCE_YOUR_CALM but writes no line.
    @Test func aSettingsFrameOfTooManyEntriesEndsWithEnhanceYourCalmAndOneWarning() async throws {
        let log = CapturedLog(level: .info)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let (client, reader) = try Self.rawClient(port: server.port)
            let entry: [UInt8] = [0, 3, 0, 0, 0, 100]  // MAX_CONCURRENT_STREAMS 100
            let entries = Array(repeating: entry, count: ConnectionState.maxSettingsEntries + 1).flatMap {
                $0
            }
            writeAll(client.fd, RawFrame(type: 4, payload: entries).bytes)
            #expect(reader.read { $0.type == RawFrame.goAway }?.goAwayErrorCode == 11, "ENHANCE_YOUR_CALM")
        }
        FrameFloodTests.expectOneFloodWarning(in: log, kind: "settings")
    }

    /// nghttp2 once ended a rapid reset after 1,000 streams with INTERNAL_ERROR and no line. Then the attacker's
    /// address cools (`FloodCooling`): its next connection is held unread and closed once the address has cooled
    /// (1 s), while one it had open still works.
    @Test func aRapidResetAtTheDefaultLimitEndsWithEnhanceYourCalmAndOneWarning() async throws {
        let log = CapturedLog(level: .info)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let neighbour = try HTTP2TestClient(port: server.port)
            #expect(neighbour.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
            let (client, reader) = try Self.rawClient(port: server.port)
            let limit = ServerConfiguration(host: "127.0.0.1", port: 0).maxFramesWithoutProgress
            var bytes: [UInt8] = []
            for index in 0..<Int32(limit + 100) {
                bytes += RawFrame.request(streamID: 101 + 2 * index, path: TestService.path("Echo")).bytes
                bytes += RawFrame.reset(streamID: 101 + 2 * index).bytes
            }
            writeAll(client.fd, bytes)
            #expect(reader.read { $0.type == RawFrame.goAway }?.goAwayErrorCode == 11, "ENHANCE_YOUR_CALM")

            let again = try HTTP2TestClient(port: server.port)
            let refused = RawFrameReader(fd: again.fd)
            refused.readToEnd()
            #expect(
                refused.peerClosed && refused.frames.isEmpty,
                "closed unread when the address has cooled: not even the server's SETTINGS")
            #expect(neighbour.call(path: TestService.path("Echo"), body: grpcFrames([2])).grpcStatus == 0)
        }
        FrameFloodTests.expectOneFloodWarning(in: log, kind: "rst_stream")
        #expect(log.lines("refusing a connection from an address cooling down after a flood").count == 1)
    }

    /// A cooling address's new connections are held unread rather than closed at once, so a flooder reconnecting
    /// in a loop waits on its connection instead of costing an accept and a close each time: at most
    /// `Acceptor.maxHeldConnections` at once (one past them is closed at once), all closed when the server drains.
    @Test func aCoolingAddressesConnectionsAreHeldUnreadAFewAtMostUntilTheServerDrains() async throws {
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        try await withServer([TestService(probe: probe)], configure: { $0.floodCooling = .seconds(60) }) {
            server in
            let (client, reader) = try Self.rawClient(port: server.port)
            let limit = ServerConfiguration(host: "127.0.0.1", port: 0).maxFramesWithoutProgress
            var bytes: [UInt8] = []
            for index in 0..<Int32(limit + 100) {
                bytes += RawFrame.request(streamID: 101 + 2 * index, path: TestService.path("Echo")).bytes
                bytes += RawFrame.reset(streamID: 101 + 2 * index).bytes
            }
            #expect(writeAll(client.fd, bytes))
            #expect(reader.read { $0.type == RawFrame.goAway }?.goAwayErrorCode == 11, "ENHANCE_YOUR_CALM")

            for _ in 0..<Acceptor.maxHeldConnections { held.append(try Loopback.connect(port: server.port)) }
            let extra = try Loopback.connect(port: server.port)
            defer { close(extra) }
            let pastTheLimit = RawFrameReader(fd: extra)
            pastTheLimit.readToEnd()
            #expect(pastTheLimit.peerClosed && pastTheLimit.frames.isEmpty, "closed at once, unread")
            // Accepted before it, in order: each still open, nothing written to it.
            var byte: UInt8 = 0
            for fd in held {
                #expect(recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == -1 && errno == EAGAIN)
            }
        }
        for fd in held {
            let reader = RawFrameReader(fd: fd)
            reader.readToEnd()
            #expect(reader.peerClosed && reader.frames.isEmpty, "closed by the drain")
        }
    }
}
