#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import KindredRPC

@Suite struct ClientEventLoopTests {
    @Test func taskPreferringALoopRunsOnItAndFindsIt() async throws {
        let loop = EventLoopGroup.shared.next()
        let found = await Task(executorPreference: loop) { EventLoop.current === loop && loop.inEventLoop }
            .value
        #expect(found)
    }

    @Test func callMadeOnALoopUsesAConnectionLivingOnThatLoop() async throws {
        let server = try ClientTestServer()
        let client = try RPCClient(target: server.target, configuration: .tests)
        // A loop of its own, standing in for a server loop that runs a handler.
        let loop = try EventLoopGroup(count: 1, name: "test-loop").loops[0]
        let (sameThread, socketOnLoop) = try await Task(executorPreference: loop) {
            () async throws -> (Bool, Bool) in
            let thread = pthread_self()
            let _: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("x"))
            return (
                pthread_equal(thread, pthread_self()) != 0,
                loop.connections.contains { $0 is ClientConnection }
            )
        }.value
        #expect(sameThread)
        #expect(socketOnLoop)
        client.close()
        await server.stop()
    }

    /// The background loop's thread says so, so that it is not taken for a server's first RPC loop in `perf`
    /// or `/proc/PID/task/*/comm` (both were `rpc-loop-0`).
    @Test func theBackgroundLoopsThreadIsNamedForIt() async throws {
        let name = await Task(executorPreference: EventLoop.background) {
            try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        }.value
        #expect(name == "background-0\n")
    }

    @Test func threadOutsideAnyLoopHasNoCurrentLoop() {
        #expect(EventLoop.current == nil)
    }

    @Test func handlerDeadlineIsVisibleToCallsItMakes() async {
        let soon = ContinuousClock.now + .seconds(1)
        let later = ContinuousClock.now + .seconds(60)
        let effective = RPCDeadline.$current.withValue(soon) { RPCDeadline.effective(later) }
        #expect(effective == soon)
        #expect(RPCDeadline.effective(later) == later)
    }

    @Test func backoffGrowsWithJitterUpToItsCap() {
        var configuration = ClientConfiguration.tests
        configuration.initialBackoff = .milliseconds(100)
        configuration.maxBackoff = .seconds(1)
        #expect((.milliseconds(80)...(.milliseconds(120))).contains(configuration.backoff(after: 0)))
        #expect((.milliseconds(320)...(.milliseconds(480))).contains(configuration.backoff(after: 2)))
        #expect((.milliseconds(800)...(.milliseconds(1200))).contains(configuration.backoff(after: 30)))
    }
}
