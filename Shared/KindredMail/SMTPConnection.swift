internal import Glibc

/// One TCP connection to an SMTP server: non-blocking socket, every wait bounded by `poll`. Used from one
/// delivery thread only; owns its socket and closes it once, in `deinit`.
final class SMTPConnection {
    private let socket: Int32
    private let timeout: Duration
    private var received: [UInt8] = []
    private var reader = SMTPReplyReader()
    /// Set after an I/O failure or a timeout: nothing more (not even QUIT) is worth sending.
    private(set) var isBroken = false
    /// Longest reply line accepted; RFC 5321 allows 512 octets, servers sometimes send more.
    static let maximumLineLength = 4096

    /// Connects to the first address of `host` that answers within `connectTimeout`; every later
    /// command's reply must arrive within `timeout`.
    init(host: String, port: Int, connectTimeout: Duration, timeout: Duration) throws(MailTransportError) {
        self.socket = try Self.connect(host: host, port: port, timeout: connectTimeout)
        self.timeout = timeout
    }

    deinit { close(socket) }

    /// Sends one command line and reads its reply.
    func command(_ line: String) throws(MailTransportError) -> SMTPReply {
        try send(Array((line + "\r\n").utf8))
        return try readReply()
    }

    /// Sends `bytes`, waiting while the socket buffer is full, within the timeout.
    func send(_ bytes: [UInt8]) throws(MailTransportError) {
        let deadline = ContinuousClock.now + timeout
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if errno == EAGAIN || errno == EINTR {
                try wait(for: Int16(POLLOUT), until: deadline, doing: "sending")
            } else {
                throw broken("sending failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Reads one whole reply, however many lines, within the timeout.
    func readReply() throws(MailTransportError) -> SMTPReply {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = received.firstIndex(of: 10) {
                let line = received[..<newline].last == 13 ? received[..<(newline - 1)] : received[..<newline]
                received.removeSubrange(...newline)
                if let reply = try reader.take(String(decoding: line, as: UTF8.self)) { return reply }
                continue
            }
            guard received.count <= Self.maximumLineLength else { throw broken("reply line too long") }
            try wait(for: Int16(POLLIN), until: deadline, doing: "waiting for a reply")
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[..<count]
            } else if count == 0 {
                throw broken("the server closed the connection")
            } else if errno != EAGAIN, errno != EINTR {
                throw broken("receiving failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    private func wait(for events: Int16, until deadline: ContinuousClock.Instant, doing what: String)
        throws(MailTransportError)
    {
        guard Self.poll(socket, events, until: deadline) else { throw broken("timed out \(what)") }
    }

    private func broken(_ what: String) -> MailTransportError {
        isBroken = true
        return .temporary("SMTP: \(what)")
    }

    /// True when `events` are ready on `socket` before `deadline` (an error or hang-up counts as ready:
    /// the next call reports it).
    static func poll(_ socket: Int32, _ events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds =
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = Glibc.poll(&descriptor, 1, Int32(clamping: max(1, milliseconds)))
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }
        }
    }
}
