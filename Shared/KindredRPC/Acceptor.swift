#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

/// Accepts on the listening socket (on the first loop) and deals connections round-robin to every loop.
final class Acceptor {
    /// Connections from cooling addresses held unread at once, at most; past this they are closed at once.
    static let maxHeldConnections = 64

    private let listener: ListeningSocket
    private let loops: [EventLoop]
    private let core: ServerCore
    private var next = 0
    /// Connections from addresses cooling after a flood, accepted and held unread until their address has cooled.
    private var held: Set<Int32> = []

    init(listener: ListeningSocket, loops: [EventLoop], core: ServerCore) {
        self.listener = listener
        self.loops = loops
        self.core = core
    }

    /// Accepts what is pending, up to a batch, so one burst cannot starve the loop's own connections.
    func acceptAll(atMost batch: Int = 128) {
        for _ in 0..<batch {
            guard let (fd, peer) = listener.accept() else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { pause() }
                return
            }
            if let cooled = coolingEnds(peer) {
                hold(fd, until: cooled)
                continue
            }
            let loop = loops[next % loops.count]
            next &+= 1
            let counted = core.reserveConnection()
            let core = core
            loop.execute { loop.adopt(fd: fd, peer: peer, core: core, counted: counted) }
        }
    }

    /// Closes the held connections (the server is draining).
    func closeHeldConnections() {
        for fd in held { close(fd) }
        held = []
    }

    /// When `peer`'s address stops cooling, if it is cooling after a flood (`FloodCooling`); logs the refusal.
    private func coolingEnds(_ peer: String) -> UInt64? {
        guard core.configuration.floodCooling > .zero else { return nil }
        let address = FloodCooling.address(ofPeer: peer)
        guard let cooled = core.floodCooling.withLock({ $0.coolingEnds(address, now: monotonicNanos()) })
        else {
            return nil
        }
        core.accessLog.connectionRefused(
            "refusing a connection from an address cooling down after a flood", kind: "flood_cooling",
            level: .notice, metadata: ["peer": "\(peer)"], on: loops[0])
        return cooled
    }

    /// Holds a cooling address's connection unread until the address has cooled, then closes it. Closing at
    /// once cost an accept and a close per attempt, and a flooder reconnected in a tight loop (a quarter of
    /// kindred-social's CPU under the attack bench); held, its writes stall once the unread window fills and its
    /// next attempt waits for this one's end. Nothing is read, parsed or answered, and a few are held at most.
    private func hold(_ fd: Int32, until cooled: UInt64) {
        guard held.count < Self.maxHeldConnections else {
            close(fd)
            return
        }
        held.insert(fd)
        let now = monotonicNanos()
        loops[0].schedule(after: .nanoseconds(cooled > now ? cooled - now : 0)) { [self] in
            if held.remove(fd) != nil { close(fd) }
        }
    }

    /// Out of descriptors: stop watching the listening socket for a moment instead of spinning on it.
    private func pause() {
        let loop = loops[0]
        core.logger.warning("accept failed: out of file descriptors; pausing accepts for 100 ms")
        loop.unregister(fd: listener.fd)
        loop.schedule(after: .milliseconds(100)) { [listener] in
            guard loop.acceptor != nil else { return }
            try? loop.register(fd: listener.fd, token: EventLoop.listenToken, events: EPOLLIN.rawValue)
        }
    }
}
