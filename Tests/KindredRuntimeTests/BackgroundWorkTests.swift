@testable import KindredRuntime
import KindredTestSupport
import Logging
import Synchronization
import Testing

@Suite("Background work")
struct BackgroundWorkTests {
    let work = BackgroundWork(logger: Logger(label: "background-tests"))

    @Test func workRunsUntilTheDrainAndIsWaitedFor() async {
        let finished = Mutex(false)
        let started = AsyncStream.makeStream(of: Void.self)
        work.start("loop") {
            started.continuation.yield()
            try? await untilCancelled()
            finished.withLock { $0 = true }
        }
        for await _ in started.stream { break }
        #expect(!finished.withLock { $0 })
        await work.stopAndWait()
        #expect(finished.withLock { $0 })
    }

    @Test func drainHooksRunOnceWhenTheDrainBegins() async {
        let runs = Mutex(0)
        work.onDrain { runs.withLock { $0 += 1 } }
        #expect(runs.withLock { $0 } == 0)
        await work.beginDrain()
        await work.beginDrain()
        await work.stopAndWait()
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func workStartedAfterTheDrainBeganNeverRuns() async {
        await work.beginDrain()
        let ran = Mutex(false)
        work.start("late") { ran.withLock { $0 = true } }
        await work.stopAndWait()
        #expect(!ran.withLock { $0 })
    }
}
