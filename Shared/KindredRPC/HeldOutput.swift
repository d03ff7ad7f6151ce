#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

/// How a write to a non-blocking socket ended.
enum SocketWrite {
    /// Every byte went out.
    case complete
    /// The socket is full; what it refused is held until EPOLLOUT says there is room.
    case refused
    /// The socket broke: the connection must close.
    case failed
}

/// Bytes a connection's non-blocking socket refused, kept in order until it has room again, and the
/// EPOLLOUT interest that waits for that room. Server and client connections both write through one,
/// in the clear or through their TLS session (`tls`).
struct HeldOutput {
    private var bytes: [UInt8] = []
    private var offset = 0
    private var watchingWritable = false

    /// Whether nothing is waiting for the socket.
    var isEmpty: Bool { offset == bytes.count }

    /// Sends `count` bytes after anything already held; keeps what the socket refuses.
    mutating func write(
        _ start: UnsafeRawPointer, _ count: Int, fd: Int32, tls: TLSStream?, loop: EventLoop
    ) -> SocketWrite {
        guard isEmpty else {
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count))
            return .refused
        }
        let sent = tls?.send(start, count) ?? Self.send(start, count, fd: fd)
        guard sent >= 0 else { return .failed }
        guard sent < count else { return .complete }
        bytes = Array(UnsafeRawBufferPointer(start: start + sent, count: count - sent))
        offset = 0
        watchWritable(true, fd: fd, loop: loop)
        return .refused
    }

    /// Sends what is held, once the socket reports room; `.complete` when nothing is left.
    mutating func retry(fd: Int32, tls: TLSStream?, loop: EventLoop) -> SocketWrite {
        guard !isEmpty else { return .complete }
        let remaining = bytes.count - offset
        let sent = bytes.withUnsafeBytes {
            tls?.send($0.baseAddress! + offset, remaining)
                ?? Self.send($0.baseAddress! + offset, remaining, fd: fd)
        }
        guard sent >= 0 else { return .failed }
        offset += sent
        guard isEmpty else { return .refused }
        bytes = []
        offset = 0
        watchWritable(false, fd: fd, loop: loop)
        return .complete
    }

    private mutating func watchWritable(_ watch: Bool, fd: Int32, loop: EventLoop) {
        guard watch != watchingWritable else { return }
        watchingWritable = watch
        loop.modify(fd: fd, events: watch ? EPOLLIN.rawValue | EPOLLOUT.rawValue : EPOLLIN.rawValue)
    }

    /// Writes until done or the socket is full: the count sent, or -1 if the socket broke.
    private static func send(_ start: UnsafeRawPointer, _ count: Int, fd: Int32) -> Int {
        var offset = 0
        while offset < count {
            // MSG_NOSIGNAL: a peer that went away must close the connection, not raise SIGPIPE.
            let written = Glibc.send(fd, start + offset, count - offset, Int32(MSG_NOSIGNAL))
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && errno == EAGAIN {
                return offset
            } else {
                return -1
            }
        }
        return offset
    }
}
