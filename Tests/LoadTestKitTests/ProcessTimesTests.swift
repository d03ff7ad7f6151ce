import LoadTestKit
import Testing

@Suite struct ProcessTimesTests {
    // A command name with a space and a parenthesis must not shift the fields.
    @Test func theFieldsAreCountedFromTheLastParenthesis() throws {
        let line =
            "4242 (postgres: x) (idle)) S 4000 4242 4242 0 -1 4194560 1200 0 0 0 150 37 9 4 20 0 1 0 500 "
            + "226918400 3000 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0"
        let times = try #require(ProcessTimes(statLine: line))
        #expect(times == ProcessTimes(pid: 4242, parent: 4000, ownTicks: 187, reapedChildrenTicks: 13))
        #expect(ProcessTimes(statLine: "not a stat line") == nil)
    }

    // PostgreSQL's cost is the postmaster's, its ended backends' and its live backends'; not a stranger's.
    @Test func aServersTreeCountsItsLiveAndEndedChildren() {
        let stats = [
            ProcessTimes(pid: 10, parent: 1, ownTicks: 5, reapedChildrenTicks: 40),
            ProcessTimes(pid: 11, parent: 10, ownTicks: 100, reapedChildrenTicks: 0),
            ProcessTimes(pid: 12, parent: 10, ownTicks: 7, reapedChildrenTicks: 0),
            ProcessTimes(pid: 13, parent: 1, ownTicks: 1_000, reapedChildrenTicks: 0),
        ]
        #expect(ProcessTimes.treeTicks(root: 10, in: stats) == 152)
        #expect(ProcessTimes.treeTicks(root: 99, in: stats) == nil)
    }

    // pids wrapped around: the backend forked a moment ago has a lower pid than its postmaster.
    @Test func theServerIsTheHolderWhoseParentHoldsNoneOfTheSocket() {
        let holders = [
            ProcessTimes(pid: 310, parent: 30_000, ownTicks: 0, reapedChildrenTicks: 0),
            ProcessTimes(pid: 30_000, parent: 1, ownTicks: 90, reapedChildrenTicks: 0),
        ]
        #expect(ListeningSockets.server(among: holders) == 30_000)
        #expect(ListeningSockets.server(among: []) == nil)
    }

    @Test func onlyListeningSocketsOnThePortAreFound() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:C383 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5151 1
               1: 0100007F:C383 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 5152 1
               2: 0100007F:C384 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5153 1
            """
        #expect(ListeningSockets.inodes(listeningOn: 50051, inTable: table) == [5151])
    }
}

@Suite struct ContextSwitchesTests {
    @Test func aThreadsStatusGivesBothCounters() throws {
        let status = """
            Name:\tkindred-social
            State:\tS (sleeping)
            Threads:\t4
            voluntary_ctxt_switches:\t1520
            nonvoluntary_ctxt_switches:\t37
            """
        #expect(ContextSwitches(status: status) == ContextSwitches(voluntary: 1_520, nonvoluntary: 37))
        #expect(ContextSwitches(status: "Name:\tx\nvoluntary_ctxt_switches:\t5") == nil)
    }

    // A backend that ended between the two readings takes its switches with it: never a negative count.
    @Test func theSwitchesBetweenTwoReadingsAreNeverNegative() {
        let before = ContextSwitches(voluntary: 100, nonvoluntary: 10)
        let after = ContextSwitches(voluntary: 90, nonvoluntary: 25)
        #expect(after - before == ContextSwitches(voluntary: 0, nonvoluntary: 15))
        #expect((before + after).total == 225)
    }
}
