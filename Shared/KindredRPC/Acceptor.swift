#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

/// Accepts on the listening socket (on the first loop) and deals connections round-robin to every loop.
final class Acceptor {
    private let listener: ListeningSocket
    private let loops: [EventLoop]
    private let core: ServerCore
    private var next = 0

    init(listener: ListeningSocket, loops: [EventLoop], core: ServerCore) {
        self.listener = listener
        self.loops = loops
        self.core = core
    }

    /// Accepts what is pending, up to a batch, so one burst cannot starve the loop's own connections.
    func acceptAll() {
        for _ in 0..<128 {
            guard let (fd, peer) = listener.accept() else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { pause() }
                return
            }
            if refusesCooling(peer) {
                close(fd)
                continue
            }
            let loop = loops[next % loops.count]
            next &+= 1
            let counted = core.reserveConnection()
            let core = core
            loop.execute { loop.adopt(fd: fd, peer: peer, core: core, counted: counted) }
        }
    }

    /// Whether `peer`'s address is cooling after a flood (`FloodCooling`): its connection is closed unread.
    private func refusesCooling(_ peer: String) -> Bool {
        guard core.configuration.floodCooling > .zero else { return false }
        let address = FloodCooling.address(ofPeer: peer)
        guard core.floodCooling.withLock({ $0.refuses(address, now: monotonicNanos()) }) else { return false }
        core.accessLog.connectionRefused(
            "refusing a connection from an address cooling down after a flood", kind: "flood_cooling",
            level: .notice, metadata: ["peer": "\(peer)"], on: loops[0])
        return true
    }

    /// Out of descriptors: stop watching the listening socket for a moment instead of spinning on it.
    private func pause() {
        let loop = loops[0]
        core.logger.warning("accept failed: out of file descriptors; pausing accepts for 100 ms")
        loop.unregister(fd: listener.fd)
        loop.schedule(after: .milliseconds(100)) { [listener] in
            guard loop.acceptHandler != nil else { return }
            try? loop.register(fd: listener.fd, token: EventLoop.listenToken, events: EPOLLIN.rawValue)
        }
    }
}
