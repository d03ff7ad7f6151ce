#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem
import Logging

/// One client TCP connection and its HTTP/2 session, owned by one event loop: every method runs on
/// that loop's thread. Calls submitted while it connects wait and start once it is ready.
final class ClientConnection: EventLoopChannel {
    /// TCP connect, then (with TLS) the handshake, then calls.
    enum State { case connecting, securing, ready, closed }

    let fd: Int32
    unowned let loop: EventLoop
    let target: ConnectTarget
    let session = HTTP2ClientSession()
    /// The TLS session, when the client speaks TLS; nil for h2c.
    let tls: TLSStream?
    let logger: Logger
    var state: State
    var isDirty = false
    /// Calls waiting for the connect to finish.
    var waiting: [ClientCall] = []
    var held = HeldOutput()
    /// Told once, when the connection closes; `connected` says whether it ever became ready.
    var onClose: ((_ connected: Bool) -> Void)?
    /// Told once, when the peer's first GOAWAY arrives: no new calls here, so the pool looks elsewhere.
    var onGoAway: (() -> Void)?
    var everConnected = false
    var connectTimer: LoopTimer?
    let keepaliveInterval: Duration
    let keepaliveTimeout: Duration
    var keepaliveTimer: LoopTimer?
    /// When bytes last arrived from the peer.
    var lastReceived = ContinuousClock.now
    /// When the keepalive PING now awaiting its answer was sent.
    var pingSentAt: ContinuousClock.Instant?

    /// Starts connecting; throws UNAVAILABLE when the connect fails at once. A connection not ready (connected
    /// and, with TLS, through its handshake) after the configuration's `connectTimeout` is abandoned.
    init(target: ConnectTarget, address: ResolvedAddress, loop: EventLoop, configuration: ClientConfiguration)
        throws(RPCError)
    {
        var (fd, connected) = try address.startConnect()
        do {
            tls = try configuration.tls.map { tls throws(TLSError) in
                try TLSStream(context: tls.context, fd: fd, verifying: target.host)
            }
        } catch {
            Glibc.close(fd)
            throw RPCError(.unavailable, "cannot start TLS: \(error)")
        }
        // With TLS even a connect that completed at once waits for EPOLLOUT, which starts the handshake.
        if tls != nil { connected = false }
        self.fd = fd
        self.loop = loop
        self.target = target
        logger = configuration.logger
        keepaliveInterval = configuration.keepaliveInterval
        keepaliveTimeout = configuration.keepaliveTimeout
        state = connected ? .ready : .connecting
        everConnected = connected
        let events = EPOLLIN.rawValue | (connected ? 0 : EPOLLOUT.rawValue)
        do { try loop.register(fd: fd, token: UInt64(fd), events: events) } catch {
            Glibc.close(fd)
            throw RPCError(.unavailable, "cannot watch the socket: \(error)")
        }
        loop.attach(self)
        loop.markDirty(self)
        if connected {
            scheduleKeepalive(after: keepaliveInterval)
        } else {
            connectTimer = loop.schedule(after: configuration.connectTimeout) { [unowned self] in
                connectTimer = nil
                close()
            }
        }
    }

    /// Open streams plus calls waiting for the connect: how busy this connection is.
    var load: Int { session.streams.count + waiting.count }

    /// Whether a new call may use this connection.
    var isUsable: Bool { state != .closed && session.canOpenStreams }

    /// Starts a call's stream now, or once connected.
    func start(_ call: ClientCall) {
        loop.assertInLoop()
        call.attach(to: self)
        switch state {
        case .connecting, .securing: waiting.append(call)
        case .ready: call.open(on: self)
        case .closed: call.handle(.closed(.notConnected))
        }
        loop.markDirty(self)
    }

    /// Drops a call that still waits for the connect (it was cancelled or timed out).
    func withdraw(_ call: ClientCall) {
        waiting.removeAll { $0 === call }
    }

    func readable() {
        loop.assertInLoop()
        guard state == .ready else { return advanceConnect() }
        // Bytes OpenSSL has already taken from the socket raise no epoll event: read until they are gone.
        repeat { receive() } while state == .ready && tls?.hasBufferedInput == true
    }

    private func receive() {
        let count =
            tls?.read(into: loop.readBuffer) ?? read(fd, loop.readBuffer.baseAddress, loop.readBuffer.count)
        if count > 0 {
            lastReceived = ContinuousClock.now
            do {
                try session.receive(UnsafeRawBufferPointer(start: loop.readBuffer.baseAddress, count: count))
            } catch {
                return close()
            }
            if let onGoAway, session.goAwayLastStreamID != nil {
                self.onGoAway = nil
                onGoAway()
            }
            loop.markDirty(self)
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            if let alert = tls?.peerAlert { refusedByTLSAlert(alert) }
            close()
        }
    }

    func writable() {
        loop.assertInLoop()
        guard state == .ready else { return advanceConnect() }
        flush()
    }

    private func advanceConnect() {
        switch state {
        case .connecting: connectFinished()
        case .securing: continueTLSHandshake()
        case .ready, .closed: break
        }
    }

    func cancelConnectTimer() {
        if let connectTimer { loop.cancel(connectTimer) }
        connectTimer = nil
    }

    /// The non-blocking connect is over: start the TLS handshake or the waiting calls, or refuse them.
    private func connectFinished() {
        guard socketError(fd) == 0 else { return close() }
        guard tls == nil else {
            state = .securing
            return continueTLSHandshake()
        }
        becomeReady()
    }

    /// The connection can carry calls (the connect timer covered the TLS handshake too): start the waiting ones.
    func becomeReady() {
        cancelConnectTimer()
        state = .ready
        everConnected = true
        lastReceived = ContinuousClock.now
        scheduleKeepalive(after: keepaliveInterval)
        loop.modify(fd: fd, events: EPOLLIN.rawValue)
        let calls = waiting
        waiting = []
        for call in calls { call.open(on: self) }
        flush()
    }
}
