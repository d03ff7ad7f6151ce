import Testing
@testable import KindredRPC

/// `FloodCooling` as a table: calms and times in, which addresses are refused out, without sockets or sleeps.
@Suite struct FloodCoolingTests {
    static let second: UInt64 = 1_000_000_000

    @Test func aCalmedAddressIsRefusedForTheBaseThenServedAgain() {
        var cooling = FloodCooling(base: .seconds(1))
        cooling.calmed("ipv4:10.0.0.7", now: 0)
        #expect(cooling.refuses("ipv4:10.0.0.7", now: Self.second - 1))
        #expect(!cooling.refuses("ipv4:10.0.0.7", now: Self.second))
        #expect(!cooling.refuses("ipv4:10.0.0.8", now: 0), "another address is served")
    }

    @Test func eachCalmWhileCoolingDoublesTheRefusalUpTo32Times() {
        var cooling = FloodCooling(base: .seconds(1))
        var refusals: [UInt64] = []
        var now: UInt64 = 0
        for _ in 0..<8 {
            cooling.calmed("ipv4:10.0.0.7", now: now)
            refusals.append((cooling.entries["ipv4:10.0.0.7"]!.until - now) / Self.second)
            now += Self.second / 2  // the next flood comes while it still cools
        }
        #expect(refusals == [1, 2, 4, 8, 16, 32, 32, 32])
    }

    @Test func aCalmAfterTheAddressCooledStartsAgainAtTheBase() {
        var cooling = FloodCooling(base: .seconds(1))
        cooling.calmed("ipv4:10.0.0.7", now: 0)
        cooling.calmed("ipv4:10.0.0.7", now: Self.second / 2)
        cooling.calmed("ipv4:10.0.0.7", now: 10 * Self.second)
        #expect(cooling.entries["ipv4:10.0.0.7"] == FloodCooling.Entry(until: 11 * Self.second, strikes: 1))
    }

    @Test func theTableHoldsAtMostItsCapacityDroppingWhatCooledThenWhatCoolsFirst() {
        var cooling = FloodCooling(base: .seconds(1), capacity: 2)
        cooling.calmed("a", now: 0)
        cooling.calmed("b", now: Self.second / 2)
        cooling.calmed("c", now: Self.second)  // a has cooled: it goes
        #expect(Set(cooling.entries.keys) == ["b", "c"])
        cooling.calmed("d", now: Self.second + 1)  // none has cooled: b, which cools first, goes
        #expect(Set(cooling.entries.keys) == ["c", "d"])
    }

    @Test func aZeroBaseRefusesNothing() {
        var cooling = FloodCooling(base: .zero)
        cooling.calmed("a", now: 0)
        #expect(!cooling.refuses("a", now: 0))
        #expect(cooling.entries.isEmpty)
    }

    @Test(arguments: [
        ("ipv4:10.0.0.7:52110", "ipv4:10.0.0.7"), ("ipv6:[::1]:443", "ipv6:[::1]"), ("unix", "unix"),
    ])
    func theAddressOfAPeerLeavesOutItsPort(_ peer: String, _ address: String) {
        #expect(FloodCooling.address(ofPeer: peer) == address)
    }
}
