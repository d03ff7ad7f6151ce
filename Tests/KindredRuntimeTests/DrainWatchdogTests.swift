import KindredTestSupport
import Synchronization
import Testing

@testable import KindredRuntime

@Suite struct DrainWatchdogTests {
    /// A drain that outlives its limit ends the process with status 1 and says why, from a thread of its own,
    /// however busy the pool is.
    @Test func aDrainPastItsLimitExitsOneAndSaysSo() async throws {
        let log = CapturedLog()
        let exited = Mutex<(status: Int32, at: ContinuousClock.Instant)?>(nil)
        let start = ContinuousClock.now
        DrainWatchdog.start(limit: .milliseconds(200), logger: log.logger()) { status in
            exited.withLock { $0 = (status, .now) }
        }
        #expect(exited.withLock { $0 } == nil)
        while exited.withLock({ $0 }) == nil, ContinuousClock.now - start < .seconds(10) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let exit = try #require(exited.withLock { $0 })
        #expect(exit.status == 1)
        #expect(exit.at - start >= .milliseconds(200))
        let line = try #require(log.lines("the drain did not end in time; exiting").first)
        #expect(line.level == .error)
        #expect(line.fields["limit"] == "0.2 seconds")
    }
}
