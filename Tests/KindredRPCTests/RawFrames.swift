import Glibc

/// HTTP/2 frames written and read as bytes, for clients that misbehave in ways nghttp2 would not let them.
struct RawFrame: Equatable {
    var type: UInt8
    var flags: UInt8 = 0
    var streamID: Int32 = 0
    var payload: [UInt8] = []

    static let goAway: UInt8 = 7
    static let ping: UInt8 = 6

    var bytes: [UInt8] {
        let length = payload.count
        let id = UInt32(streamID)
        return [
            UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
            UInt8(id >> 24 & 0x7F), UInt8(id >> 16 & 0xFF), UInt8(id >> 8 & 0xFF), UInt8(id & 0xFF),
        ] + payload
    }

    /// A GOAWAY's error code (`ENHANCE_YOUR_CALM` is 11).
    var goAwayErrorCode: UInt32? {
        guard type == Self.goAway, payload.count >= 8 else { return nil }
        return payload[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// Reads the server's frames straight off a socket (nothing else may have read from it).
final class RawFrameReader {
    private let fd: Int32
    private var buffered: [UInt8] = []
    private(set) var frames: [RawFrame] = []
    private(set) var peerClosed = false

    init(fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads until a frame satisfies `done`, the peer closes, or a read waits 5 s in vain; the frame or nil.
    @discardableResult
    func read(until done: (RawFrame) -> Bool) -> RawFrame? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var next = frames.count
        while true {
            while next < frames.count {
                if done(frames[next]) { return frames[next] }
                next += 1
            }
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else {
                peerClosed = count == 0 || errno == ECONNRESET
                return nil
            }
            buffered += chunk[0..<count]
            parse()
        }
    }

    /// Reads until the peer closes the connection (or a read waits 5 s in vain).
    func readToEnd() {
        read { _ in false }
    }

    private func parse() {
        while buffered.count >= 9 {
            let length = Int(buffered[0]) << 16 | Int(buffered[1]) << 8 | Int(buffered[2])
            guard buffered.count >= 9 + length else { return }
            let id = buffered[5..<9].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append(
                RawFrame(
                    type: buffered[3], flags: buffered[4], streamID: Int32(id),
                    payload: Array(buffered[9..<9 + length])))
            buffered.removeFirst(9 + length)
        }
    }
}

/// Writes every byte or fails (the peer closed).
@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes {
            send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        }
        if written <= 0 { return false }
        offset += written
    }
    return true
}

extension RawFrame {
    /// A request's HEADERS for `path`, HPACK-encoded with literals that leave the dynamic table alone.
    static func request(streamID: Int32, path: String, endStream: Bool = false) -> RawFrame {
        func literal(_ prefix: [UInt8], _ value: String) -> [UInt8] {
            prefix + [UInt8(value.utf8.count)] + Array(value.utf8)
        }
        // :method POST and :scheme http are static entries 3 and 6; :authority, :path and content-type name
        // entries 1, 4 and 31 (15 + 16 past a 4-bit prefix); te is a new name.
        let block =
            [0x83, 0x86] + literal([0x01], "x") + literal([0x04], path)
            + literal([0x0F, 0x10], "application/grpc")
            + literal([0x00], "te") + [0x08] + Array("trailers".utf8)
        return RawFrame(type: 1, flags: 0x4 | (endStream ? 0x1 : 0), streamID: streamID, payload: block)
    }

    /// RST_STREAM with CANCEL.
    static func reset(streamID: Int32) -> RawFrame {
        RawFrame(type: 3, streamID: streamID, payload: [0, 0, 0, 8])
    }
}
