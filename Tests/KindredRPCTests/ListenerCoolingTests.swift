import Glibc
import KindredTestSupport
import Testing

@testable import KindredRPC

/// `ListenerCooling` on real loopback listeners: the kernel drops a cooling address's connection attempts before
/// any accept, and lets every other address through. Each test first makes the attempt that must be dropped,
/// then one that must get through, and waits for that one (an event, five seconds at most): loopback handles
/// both SYNs in order, so when the second has connected the first would have too.
@Suite struct ListenerCoolingTests {
    static let second: UInt64 = 1_000_000_000

    @Test func peersAreReadAsTheFilterComparesThem() {
        #expect(SourceFilter.Address(peerAddress: "ipv4:10.0.0.7") == .v4(0x0A00_0007))
        #expect(
            SourceFilter.Address(peerAddress: "ipv6:[::ffff:10.0.0.7]") == .v4(0x0A00_0007),
            "IPv4 on a dual stack")
        #expect(SourceFilter.Address(peerAddress: "ipv6:[2001:db8::1]") == .v6(0x2001_0DB8, 0, 0, 1))
        #expect(SourceFilter.Address(peerAddress: "ipv4:10.0.0") == nil)
        #expect(SourceFilter.Address(peerAddress: "ipv6:2001:db8::1") == nil)
        #expect(SourceFilter.Address(peerAddress: "unix:/run/kindred.sock") == nil)
    }

    @Test func aCalmedAddressCannotConnectUntilItHasCooledWhileOthersCan() throws {
        let listener = try ListeningSocket(host: "127.0.0.1", port: 0, backlog: 16)
        defer { close(listener.fd) }
        let cooling = ListenerCooling(base: .seconds(1))
        cooling.listen(on: listener.fd)
        let until = try #require(cooling.calmed("ipv4:127.0.0.2", now: 0))
        #expect(until == Self.second)

        let dropped = try ConnectAttempt(from: "127.0.0.2", toPort: listener.port)
        let served = try ConnectAttempt(from: "127.0.0.1", toPort: listener.port)
        #expect(served.waitConnected())
        #expect(!dropped.isConnected, "the cooling address's SYN never reached the listener")
        #expect(Self.acceptedPeers(listener) == ["ipv4:127.0.0.1"])

        cooling.refresh(now: until)
        let cooled = try ConnectAttempt(from: "127.0.0.2", toPort: listener.port)
        #expect(cooled.waitConnected(), "served again once it has cooled")
    }

    @Test func aDualStackListenerDropsIPv6AndIPv4CoolingAddresses() throws {
        let listener = try ListeningSocket(host: "::", port: 0, backlog: 16)
        defer { close(listener.fd) }
        let cooling = ListenerCooling(base: .seconds(1))
        cooling.listen(on: listener.fd)
        _ = cooling.calmed("ipv6:[::1]", now: 0)
        _ = cooling.calmed("ipv6:[::ffff:127.0.0.2]", now: 0)

        let droppedV6 = try ConnectAttempt(from: "::1", toPort: listener.port)
        let droppedV4 = try ConnectAttempt(from: "127.0.0.2", toPort: listener.port)
        let served = try ConnectAttempt(from: "127.0.0.1", toPort: listener.port)
        #expect(served.waitConnected())
        #expect(!droppedV6.isConnected && !droppedV4.isConnected)
        #expect(Self.acceptedPeers(listener) == ["ipv6:[::ffff:127.0.0.1]"])
    }

    /// The filter holds the 64 addresses cooling longest; the acceptor's own check still refuses the rest.
    @Test func pastItsCapacityTheFilterLeavesTheShortestCoolingToTheAcceptor() throws {
        let listener = try ListeningSocket(host: "127.0.0.1", port: 0, backlog: 16)
        defer { close(listener.fd) }
        let cooling = ListenerCooling(base: .seconds(1))
        cooling.listen(on: listener.fd)
        for host in 2...(2 + SourceFilter.capacity) {
            _ = cooling.calmed("ipv4:127.0.0.\(host)", now: UInt64(host))
        }
        let now = UInt64(2 + SourceFilter.capacity)

        let dropped = try ConnectAttempt(from: "127.0.0.66", toPort: listener.port)
        let unfiltered = try ConnectAttempt(from: "127.0.0.2", toPort: listener.port)
        #expect(unfiltered.waitConnected())
        #expect(!dropped.isConnected)
        #expect(cooling.refuses("ipv4:127.0.0.2", now: now), "so the acceptor closes it unread")
    }

    @Test func aClosedListenerIsNeverFiltered() throws {
        let listener = try ListeningSocket(host: "127.0.0.1", port: 0, backlog: 16)
        defer { close(listener.fd) }
        let cooling = ListenerCooling(base: .seconds(1))
        cooling.listen(on: listener.fd)
        cooling.stopListening()
        _ = cooling.calmed("ipv4:127.0.0.2", now: 0)

        let attempt = try ConnectAttempt(from: "127.0.0.2", toPort: listener.port)
        #expect(
            attempt.waitConnected(), "the descriptor is no longer the listener's: nothing was attached to it")
        #expect(cooling.refuses("ipv4:127.0.0.2", now: 0))
    }

    @Test func coolingOffFiltersNothing() throws {
        let cooling = ListenerCooling(base: .zero)
        #expect(cooling.calmed("ipv4:127.0.0.2", now: 0) == nil)
        #expect(!cooling.refuses("ipv4:127.0.0.2", now: 0))
    }

    /// The address part of every connection waiting on `listener`, each closed.
    static func acceptedPeers(_ listener: ListeningSocket) -> [String] {
        var peers: [String] = []
        while let (fd, peer) = listener.accept() {
            close(fd)
            peers.append(FloodCooling.address(ofPeer: peer))
        }
        return peers
    }
}
