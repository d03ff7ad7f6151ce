import KindredTestSupport
import Testing

@testable import KindredRuntime

@Suite struct HealthStatusBoardTests {
    @Test func unknownServiceHasNoStatus() {
        let board = HealthStatusBoard()
        board.set(.serving, for: "a")
        #expect(board.status(of: "a") == .serving)
        #expect(board.status(of: "b") == nil)
    }

    @Test func watchSeesCurrentStatusThenEachChangeInOrder() async {
        let board = HealthStatusBoard()
        board.set(.notServing, for: "svc")
        var statuses = board.watch("svc").makeAsyncIterator()
        #expect(await statuses.next() == .some(.notServing))
        board.set(.serving, for: "svc")
        #expect(await statuses.next() == .some(.serving))
        board.set(.notServing, for: "svc")
        #expect(await statuses.next() == .some(.notServing))
    }

    @Test func watchOfUnknownServiceStartsWithNil() async {
        let board = HealthStatusBoard()
        var statuses = board.watch("later").makeAsyncIterator()
        #expect(await statuses.next() == .some(nil))
        board.set(.serving, for: "later")
        #expect(await statuses.next() == .some(.serving))
    }

    @Test func drainReportsNotServingForGoodAndEndsWatches() async {
        let board = HealthStatusBoard()
        board.set(.serving, for: "")
        board.set(.serving, for: "svc")
        var statuses = board.watch("svc").makeAsyncIterator()
        #expect(await statuses.next() == .some(.serving))

        board.beginDrain()
        #expect(await statuses.next() == .some(.notServing))
        #expect(await statuses.next() == nil)

        board.set(.serving, for: "svc")
        #expect(board.status(of: "svc") == .notServing)
        #expect(board.status(of: "") == .notServing)
        var late = board.watch("svc").makeAsyncIterator()
        #expect(await late.next() == .some(.notServing))
        #expect(await late.next() == nil)
    }

    /// What tells a watcher something: its service's status changes, or the process drains.
    enum Change: CaseIterable, Sendable {
        case statusChange, drain

        func make(on board: HealthStatusBoard) {
            switch self {
            case .statusChange: board.set(.notServing, for: "svc")
            case .drain: board.beginDrain()
            }
        }
    }

    /// A health watch ends (the caller left: its task is cancelled, on one thread) as its service's status changes
    /// or the process drains (on another): the cancellation holds the watcher task's status lock while the stream's
    /// onTermination waits for the board's lock, and the change, yielding to that stream, resumes the task and
    /// needs its status lock. They waited for each other while the board yielded under its lock. Each round races
    /// the two on threads of their own, started together.
    @Test(.timeLimit(.minutes(1)), arguments: Change.allCases)
    func aWatcherCancelledAsItsStatusChangesNeverDeadlocks(_ change: Change) async throws {
        for round in raceRounds() {
            let board = HealthStatusBoard()
            board.set(.serving, for: "svc")
            let watcher = Task { for await _ in board.watch("svc") {} }
            try await Task.sleep(for: .microseconds(20))  // time to read .serving and park for the next
            guard try await bothReturn({ watcher.cancel() }, { change.make(on: board) }) else {
                Issue.record("round \(round): cancelling a watcher as it was told \(change) deadlocked")
                return
            }
            await watcher.value
        }
    }
}
