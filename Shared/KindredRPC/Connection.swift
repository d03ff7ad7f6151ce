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
    /// Whether this connection holds one of the server's `maxConnections` places.
    private(set) var counted: Bool
    private(set) var session: OpaquePointer?
    var calls: [Int32: ServerCall] = [:]
    /// The call whose HEADERS are being received, so each header skips the table lookup.
    var receivingHeaders: ServerCall?
    /// Server streams whose handler started this iteration: their HEADERS go out at the flush.
    var announcedCalls: [ServerCall] = []
    private var held = HeldOutput()
    var isDirty = false
    private(set) var closed = false
    var lastReceived: UInt64
    var idleSince: UInt64
    var pingSentAt: UInt64?
    var goingAway = false
    /// When the connection reaches its maximum age (`Connection+Age.swift`); nil when the server sets none.
    let retiresAt: UInt64?
    /// The GOAWAY notice of its age went out; the final GOAWAY follows.
    var retiring = false
    private var lingering = false
    /// The client's preface and first SETTINGS have arrived (see `Connection+Admission.swift`).
    var handshaken = false
    var handshakeTimer: LoopTimer?
    var floodCounter: FrameFloodCounter
    /// The peer flooded frames without progress: its GOAWAY goes out, then the socket closes at once.
    var calmed = false
    var frameScanner = FrameHeaderScanner()
    /// WINDOW_UPDATE and PING frames the client may still send as acknowledgements (see `dataFrameSent`).
    var acknowledgementCredit = 0
    /// Access lines of reset, refused and malformed calls: a few a second, the rest summarized.
    var callLines: CallLineBudget

    init(fd: Int32, loop: EventLoop, core: ServerCore, peer: String, tls: TLSStream?, counted: Bool) {
        self.fd = fd
        self.tls = tls
        self.loop = loop
        self.core = core
        self.peer = peer
        self.counted = counted
        lastReceived = loop.now
        idleSince = loop.now
        retiresAt = Self.retirement(after: core.configuration.maxConnectionAge, now: loop.now)
        floodCounter = FrameFloodCounter(
            limit: core.configuration.maxFramesWithoutProgress, window: core.configuration.frameFloodWindow,
            now: loop.now)
        callLines = CallLineBudget(core.configuration.accessLog)
        session = makeSession()
    }

    /// Reads what the socket has and feeds it to nghttp2 (after the TLS handshake, on a TLS listener).
    func readable() {
        guard let tls else { return receive() }
        guard tls.isEstablished else { return continueTLSHandshake(tls) }
        // Bytes OpenSSL has already taken from the socket raise no epoll event: read until they are gone.
        repeat { receive() } while !closed && tls.hasBufferedInput
    }

    private func receive() {
        let count =
            tls?.read(into: loop.readBuffer) ?? read(fd, loop.readBuffer.baseAddress, loop.readBuffer.count)
        if lingering || calmed {
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { close() }
            return
        }
        if count > 0 {
            let consumed = nghttp2_session_mem_recv(
                session, loop.readBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
            if consumed < 0 {
                core.logger.debug(
                    "closing connection after a protocol error",
                    metadata: [
                        "peer": "\(peer)", "error": "\(String(cString: nghttp2_strerror(Int32(consumed))))",
                    ])
                return close()
            }
            // After nghttp2, so that the streams these bytes opened are known.
            scanInbound(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]))
            loop.markDirty(self)
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            close()
        }
    }

    /// The socket has room again: send what it refused before, then whatever nghttp2 has.
    func writable() {
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
        // Before the TLS handshake ends, nghttp2 keeps the server's SETTINGS queued.
        guard !closed, tls?.isEstablished != false else { return }
        if !announcedCalls.isEmpty {
            for call in announcedCalls { call.submitAnnouncedHeaders() }
            announcedCalls.removeAll(keepingCapacity: true)
        }
        guard !lingering, held.isEmpty else { return }
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
            // A flooding peer gets no grace: it may lose the GOAWAY to the RST its unread frames cause.
            if calmed { close() } else { linger() }
        }
    }

    /// Everything is written (a GOAWAY last): half-close and discard input until the peer closes, so the
    /// kernel does not answer unread input with a RST that could destroy the GOAWAY in flight.
    private func linger() {
        guard !lingering else { return }
        lingering = true
        shutdown(fd, Int32(SHUT_WR))
        loop.schedule(after: .seconds(2)) { [weak self] in self?.close() }
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

    /// Gives up this connection's place under `maxConnections` (it is on its way out).
    func releasePlace() {
        guard counted else { return }
        counted = false
        core.connectionClosed()
    }

    /// Closes the socket, frees the session and ends every call still on it.
    func close() {
        guard !closed else { return }
        closed = true
        if let handshakeTimer { loop.cancel(handshakeTimer) }
        handshakeTimer = nil
        loop.unregister(fd: fd)
        Glibc.close(fd)
        loop.remove(self)
        releasePlace()
        let orphans = calls
        calls = [:]
        receivingHeaders = nil
        for call in orphans.values { call.streamDidClose() }
        writeCallLineSummary()
        nghttp2_session_del(session)
        session = nil
        loop.connectionClosed()
    }
}
