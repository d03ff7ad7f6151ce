import Dispatch
import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
import Logging
import Synchronization
import Testing

@testable import KindredRuntime

/// A test server started the way the tests start theirs (`runOnALoop`) serves while other tests hold every
/// cooperative-pool thread with blocking work, as they do under the full suite: a server whose `run()` waited
/// for a pool thread served nothing until the first call's deadline had passed.
@Suite struct ServerOnALoopTests {
    @Test func aServerStartedOnALoopAnswersWhileEveryPoolThreadIsHeld() async throws {
        let served = StandardServices(board: HealthStatusBoard(), services: [])
        served.markServing(true)
        // Everything here runs on a loop, the client's deadline timer included: the pool cannot run it.
        let answer = try await Task(executorPreference: EventLoop.background) {
            let hold = PoolHold()
            defer { hold.release() }
            try await hold.waitUntilHeld()
            let server = try RPCServer.bind(
                configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: served.all,
                logger: Logger(label: "server-on-a-loop-test"))
            let serving = server.runOnALoop()
            let client = try RPCClient(target: "127.0.0.1:\(server.port)")
            let answer: Result<Grpc_Health_V1_HealthCheckResponse, RPCError>
            do throws(RPCError) {
                answer = .success(
                    try await Grpc_Health_V1_Health.Client(client).check(
                        .init(), options: CallOptions(timeout: .seconds(2))))
            } catch {
                answer = .failure(error)
            }
            hold.release()
            client.close()
            server.beginGracefulShutdown(drainTimeout: .seconds(1))
            try await serving.value
            return answer
        }.value
        #expect(try answer.get().status == .serving)
    }
}

/// Blocks every thread of the cooperative pool, as other tests' blocking work does: twice as many tasks as
/// cores, since libdispatch adds threads (up to about twice the cores) when it sees its workers blocked.
private final class PoolHold: Sendable {
    private let holders = 2 * ProcessInfo.processInfo.activeProcessorCount
    private let released = DispatchSemaphore(value: 0)
    private let holding = Atomic<Int>(0)
    private let isReleased = Atomic<Bool>(false)

    init() {
        for _ in 0..<holders {
            Task.detached { [self] in hold() }
        }
    }

    private func hold() {
        holding.add(1, ordering: .relaxed)
        released.wait()
    }

    /// Returns once a pool thread per core is held (the rest may wait for threads the pool never adds); called
    /// on a loop, whose own timers it sleeps on, since a `Task.sleep` would wait for the pool.
    func waitUntilHeld() async throws {
        guard let loop = EventLoop.currentLoop else { throw TestFailure("PoolHold waits on a loop") }
        let giveUp = ContinuousClock.now + .seconds(30)
        while holding.load(ordering: .relaxed) < ProcessInfo.processInfo.activeProcessorCount {
            guard ContinuousClock.now < giveUp else {
                throw TestFailure("the pool's threads were never all held")
            }
            try await loop.sleep(until: .now + .milliseconds(10))
        }
    }

    /// Lets every holder go (once; later calls do nothing).
    func release() {
        guard !isReleased.exchange(true, ordering: .relaxed) else { return }
        for _ in 0..<holders { released.signal() }
    }
}
