import Glibc
import Synchronization
import Testing
@testable import KindredRPC

/// A connection's share of its loop on real sockets: one that pours frames is read a turn's budget at a time,
/// so a neighbour on the same loop is served between its reads rather than after all of them.
@Suite(.timeLimit(.minutes(1))) struct ReadTurnFairnessTests {
    static let calls = 64

    @Test func aConnectionPouringFramesDoesNotHoldItsLoopFromAnother() async throws {
        let order = StartOrder()
        var bytesPerCall = 0
        let service = StartOrderService(order: order)
        try await withServer([service], configure: { $0.eventLoopCount = 1 }) { server in
            let pourer = adoptSocketPair(on: server)
            let neighbour = adoptSocketPair(on: server)
            defer { for fd in [pourer, neighbour] { close(fd) } }
            var pour: [UInt8] = []
            for index in 0..<Int32(Self.calls) {
                pour += StartOrderService.call(streamID: 1 + 2 * index, tag: 1)
            }
            bytesPerCall = pour.count / Self.calls
            // Both sockets fill while the loop is held, so its next turn finds both ready, the pourer first.
            let hold = LoopHold(server.loops[0])
            #expect(writeAll(pourer, StartOrderService.preface + pour))
            let call = StartOrderService.call(streamID: 1, tag: 2)
            #expect(writeAll(neighbour, StartOrderService.preface + call))
            hold.release()
            #expect(RawFrameReader(fd: neighbour).endedStreams(1))
            #expect(RawFrameReader(fd: pourer).endedStreams(Self.calls))
        }
        let tags = order.tags.withLock { $0 }
        #expect(tags.count == Self.calls + 1)
        let pouredFirst = tags.prefix { $0 == 1 }.count
        let budget = ConnectionState.Limits(ServerConfiguration(host: "127.0.0.1", port: 0)).readBudget
        #expect(pouredFirst <= budget / bytesPerCall, "the neighbour's call started after one turn's share")
        #expect(pouredFirst < Self.calls)
    }
}

/// The first byte of each request, in the order the handlers started.
final class StartOrder: Sendable {
    let tags = Mutex<[UInt8]>([])
}

/// One unary method that records its request's first byte in `order`, for raw-frame clients.
struct StartOrderService: RPCService {
    let order: StartOrder
    let publicMethods = MethodSet.all
    static let path = "/test.StartOrder/Record"
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + RawFrame(type: 4).bytes

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(MethodDescriptor(service: "test.StartOrder", method: "Record")) {
            [order] (request: RawBytes, _) -> RawBytes in
            order.tags.withLock { $0.append(request.bytes.first ?? 0) }
            return RawBytes()
        }
    }

    /// A whole call: HEADERS, then one DATA frame of a 1 KiB message that begins with `tag`.
    static func call(streamID: Int32, tag: UInt8) -> [UInt8] {
        let message = grpcFrames([tag] + Array(repeating: 0x2A, count: 1_023))
        return RawFrame.request(streamID: streamID, path: path).bytes
            + RawFrame(type: 0, flags: 1, streamID: streamID, payload: message).bytes
    }
}

/// One end of a socket pair that the server's first loop adopts as it adopts an accepted connection; the
/// other end, blocking, for the test.
func adoptSocketPair(on server: RPCServer) -> Int32 {
    var ends: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    precondition(socketpair(AF_UNIX, type, 0, &ends) == 0)
    let (serverEnd, core, loop) = (ends[1], server.core, server.loops[0])
    _ = fcntl(serverEnd, F_SETFL, fcntl(serverEnd, F_GETFL) | O_NONBLOCK)
    let counted = core.reserveConnection()
    loop.execute { loop.adopt(fd: serverEnd, peer: "unix:test", core: core, counted: counted) }
    return ends[0]
}

extension RawFrameReader {
    /// Reads until `count` streams have ended (HEADERS with END_STREAM: the calls' trailers); false if the
    /// peer closed or went quiet first.
    func endedStreams(_ count: Int) -> Bool {
        var ended = 0
        return read { frame in
            if frame.type == 1 && frame.flags & 1 != 0 { ended += 1 }
            return ended == count
        } != nil
    }
}
