#if canImport(Glibc)
import Glibc
#endif
internal import CNGHTTP2
internal import CLinuxSystem

/// One accepted TCP connection and its nghttp2 server session, owned by one event loop.
final class Connection: EventLoopChannel {
    let fd: Int32
    unowned let loop: EventLoop
    let core: ServerCore
    let peer: String
    /// The TLS session, on a TLS listener; nil for h2c.
    let tls: TLSStream?
    /// The DNS and URI names of the client's verified certificate (mutual TLS), once the handshake is done.
    var peerNames: [String] = []
    private(set) var session: OpaquePointer?
    var calls: [Int32: ServerCall] = [:]
    /// The call whose HEADERS are being received, so each header skips the table lookup.
    var receivingHeaders: ServerCall?
    /// Server streams whose handler started this iteration: their HEADERS go out at the flush.
    var announcedCalls: [ServerCall] = []
    private var held = HeldOutput()
    var isDirty = false
    /// The connection's whole lifecycle (`ConnectionState`); this class keeps the resources it acts on.
    var state: ConnectionState
    /// The timers `state` armed and that have not fired; torn down with the connection.
    var armedTimers: [ConnectionState.Timer: LoopTimer] = [:]
    var frameScanner = FrameHeaderScanner()
    /// The streams the current read resets: a call whose HEADERS end in the same read never starts.
    var resetsInRead = Set<Int32>()
    /// The current read's DATA frames, judged once nghttp2 has read them.
    var dataInRead: [FrameHeaderScanner.Header] = []
    /// Access lines of reset, refused and malformed calls: a few a second, the rest summarized.
    var callLines: CallLineBudget
    /// The loop turn that last read the connection, and whether it waits in the loop's `readsDue`.
    var lastReadTurn: UInt64 = 0
    var readDue = false

    init(fd: Int32, loop: EventLoop, core: ServerCore, peer: String, tls: TLSStream?, counted: Bool) {
        self.fd = fd
        self.tls = tls
        self.loop = loop
        self.core = core
        self.peer = peer
        state = ConnectionState(
            limits: ConnectionState.Limits(core.configuration), holdsPlace: counted,
            retiresAt: ConnectionState.retirement(after: core.configuration.maxConnectionAge, now: loop.now),
            now: loop.now)
        callLines = CallLineBudget(core.configuration.accessLog)
        session = makeSession()
    }

    /// Whether the connection has ended (`ConnectionState.Phase.closed`).
    var closed: Bool { state.isClosed }

    /// Reads the connection's share of this loop turn (`ConnectionState+ReadTurn.swift`) and feeds it to nghttp2
    /// (after the TLS handshake, on a TLS listener).
    func readable() {
        loop.assertInLoop()
        lastReadTurn = loop.turn
        if let tls, !tls.isEstablished { return continueTLSHandshake(tls) }
        var step = state.readTurnBegins()
        while case .read(let limit) = step {
            let count = receive(upTo: limit)
            // Bytes OpenSSL has already taken from the socket raise no epoll event.
            step = state.read(count, moreBuffered: tls?.hasBufferedInput == true)
        }
        if step == .readNextTurn { loop.readNextTurn(self) }
    }

    /// One read of at most `limit` bytes; its count, as `read(2)` returns it.
    private func receive(upTo limit: Int) -> Int {
        let buffer = UnsafeMutableRawBufferPointer(
            rebasing: loop.readBuffer[..<min(limit, loop.readBuffer.count)])
        let count = tls?.read(into: buffer) ?? read(fd, buffer.baseAddress, buffer.count)
        if state.discardsInput {
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { close() }
            return count
        }
        if count > 0 {
            let bytes = UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count])
            judgeInbound(bytes)
            // A flood found in these bytes: nghttp2 reads none of them; the GOAWAY goes out at the flush.
            if !state.discardsInput {
                let consumed = nghttp2_session_mem_recv(
                    session, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
                if consumed == Int(NGHTTP2_ERR_FLOODED.rawValue) {
                    libraryFlooded()
                } else if consumed < 0 {
                    core.logger.debug(
                        "closing connection after a protocol error",
                        metadata: [
                            "peer": "\(peer)",
                            "error": "\(String(cString: nghttp2_strerror(Int32(consumed))))",
                        ])
                    close()
                    return count
                }
                judgeData()
            }
            if !resetsInRead.isEmpty { resetsInRead.removeAll(keepingCapacity: true) }
            if !dataInRead.isEmpty { dataInRead.removeAll(keepingCapacity: true) }
            loop.markDirty(self)
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            close()
        }
        return count
    }

    /// The socket has room again: send what it refused before, then whatever nghttp2 has.
    func writable() {
        loop.assertInLoop()
        guard !closed else { return }
        if let tls, !tls.isEstablished { return continueTLSHandshake(tls) }
        switch held.retry(fd: fd, tls: tls, loop: loop) {
        case .complete: flush()
        case .refused: break
        case .failed: close()
        }
    }

    /// Serializes nghttp2's queued frames into the loop's write buffer and writes them in one call.
    func flush() {
        loop.assertInLoop()
        // Before the TLS handshake ends, nghttp2 keeps the server's SETTINGS queued.
        guard !closed, tls?.isEstablished != false else { return }
        if !announcedCalls.isEmpty {
            for call in announcedCalls { call.submitAnnouncedHeaders() }
            announcedCalls.removeAll(keepingCapacity: true)
        }
        guard state.phase != .lingering, held.isEmpty else { return }
        let buffer = loop.writeBuffer.baseAddress!
        let capacity = loop.writeBuffer.count
        var used = 0
        while true {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            if count < 0 { return close() }
            guard count > 0, let chunk else { break }
            if used + count > capacity {
                guard writeOut(UnsafeRawPointer(buffer), used) else {
                    // Keep this chunk behind the refused bytes; nghttp2 has already moved past it.
                    if !closed { _ = held.write(chunk, count, fd: fd, tls: tls, loop: loop) }
                    return
                }
                used = 0
            }
            if count > capacity {
                guard writeOut(chunk, count) else { return }
                continue
            }
            (buffer + used).copyMemory(from: chunk, byteCount: count)
            used += count
        }
        if used > 0 && !writeOut(UnsafeRawPointer(buffer), used) { return }
        if nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 {
            perform(state.sessionFinished())
        }
    }

    /// Writes bytes, holding what the socket refuses until EPOLLOUT; false unless all was written.
    private func writeOut(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        switch held.write(bytes, count, fd: fd, tls: tls, loop: loop) {
        case .complete: return true
        case .refused: return false
        case .failed:
            close()
            return false
        }
    }

    func markDirty() {
        loop.markDirty(self)
    }

    /// Ends the connection: the socket closes, the session is freed and every call still on it ends.
    func close() {
        perform(state.closed())
    }

    /// Closes the socket, frees the session and ends every call still on it (`ConnectionState.Action.tearDown`).
    func tearDown() {
        loop.unregister(fd: fd)
        Glibc.close(fd)
        loop.remove(self)
        let orphans = calls
        calls = [:]
        receivingHeaders = nil
        for timer in armedTimers.values { loop.cancel(timer) }
        armedTimers = [:]
        for call in orphans.values { call.streamDidClose() }
        writeCallLineSummary()
        nghttp2_session_del(session)
        session = nil
        loop.connectionClosed()
    }
}
