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
}
