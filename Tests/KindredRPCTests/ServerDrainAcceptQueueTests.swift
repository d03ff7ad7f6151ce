import CNGHTTP2
import Glibc
import Synchronization
import Testing

@testable import KindredRPC

/// A drain closes the listener; what the kernel still held in its accept queue is accepted first and told with a
/// GOAWAY that none of its streams was taken, so any client (grpcio's too) sends its calls elsewhere. Closed
/// unaccepted, those connections were reset with the calls unread, and a client could not tell them from
/// processed ones (the rolling-restart fault test saw such calls fail UNAVAILABLE).
@Suite struct ServerDrainAcceptQueueTests {
    @Test func aConnectionQueuedWhenTheDrainBeganIsRefusedWithAGoAwayNotReset() async throws {
        try await withServer([TestService(probe: Probe())]) { server in
            // The accepting loop is busy, so the connection waits in the kernel's queue with its call.
            let busy = Atomic<Bool>(false)
            server.loops[0].execute {
                busy.store(true, ordering: .releasing)
                usleep(300_000)
            }
            while !busy.load(ordering: .acquiring) { usleep(1_000) }
            let client = try HTTP2TestClient(port: server.port)
            let stream = client.start(path: TestService.path("Echo"), body: grpcFrames([1]))
            client.flush()
            server.beginGracefulShutdown(drainTimeout: .seconds(1))
            let response = client.wait(stream)
            #expect(client.goAwayReceived)
            #expect(response.closed && response.resetCode == NGHTTP2_REFUSED_STREAM.rawValue)
            #expect(response.headers.isEmpty, "never processed")
        }
    }
}
