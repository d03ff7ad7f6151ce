import Testing
@testable import KindredRPC

@Suite struct EventLoopSleepTests {
    @Test func sleepOnALoopEndsAfterItsDeadlineOnTheLoop() async throws {
        let loop = try EventLoop.startClientLoops(count: 1)[0]
        let deadline = ContinuousClock.now + .milliseconds(20)
        let (woke, onLoop) = try await Task(executorPreference: loop) {
            () async throws -> (ContinuousClock.Instant, Bool) in
            try await loop.sleep(until: deadline)
            return (ContinuousClock.now, loop.inEventLoop)
        }.value
        #expect(woke >= deadline)
        #expect(onLoop)
    }

    @Test func sleepWithADeadlinePassedEndsAtOnce() async throws {
        let loop = try EventLoop.startClientLoops(count: 1)[0]
        try await Task(executorPreference: loop) {
            try await loop.sleep(until: ContinuousClock.now - .seconds(1))
        }.value
    }

    @Test func cancellingASleepingTaskEndsItsSleepWithCancellationError() async throws {
        let loop = try EventLoop.startClientLoops(count: 1)[0]
        let asleep = AsyncStream.makeStream(of: Void.self)
        let sleeper = Task(executorPreference: loop) { () async -> Bool in
            asleep.continuation.yield()
            do {
                try await loop.sleep(until: ContinuousClock.now + .seconds(600))
                return false
            } catch {
                return true
            }
        }
        for await _ in asleep.stream { break }
        sleeper.cancel()
        #expect(await sleeper.value)
    }

    @Test func aTaskCancelledBeforeItSleepsDoesNotSleep() async throws {
        let loop = try EventLoop.startClientLoops(count: 1)[0]
        let cancelled = Task(executorPreference: loop) { () async -> Bool in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await loop.sleep(until: ContinuousClock.now + .seconds(600))
                return false
            } catch {
                return true
            }
        }
        #expect(await cancelled.value)
    }
}
