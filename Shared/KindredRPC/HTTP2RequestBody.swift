/// The request bytes of one client stream: given whole (unary and server-streaming calls) or appended
/// as the caller produces them (client streaming). nghttp2 takes them only as fast as the peer's
/// flow-control window allows; what it has not taken waits here.
final class HTTP2RequestBody {
    private var bytes: [UInt8]
    private var offset = 0
    /// Whether every byte has been given: the stream half-closes (END_STREAM) after the last one.
    private(set) var isComplete: Bool
    /// Told whenever nghttp2 took bytes off the body, so a waiting producer can add more.
    var onTaken: (() -> Void)?

    /// What one read by nghttp2 gets.
    enum Read: Equatable {
        /// This many bytes were copied; `isLast` ends the stream.
        case bytes(Int, isLast: Bool)
        /// Nothing to send yet, but more will come: the stream waits until it is resumed.
        case deferred
    }

    init(_ bytes: [UInt8], isComplete: Bool = true) {
        self.bytes = bytes
        self.isComplete = isComplete
    }

    /// Bytes given but not yet taken by nghttp2.
    var pendingCount: Int { bytes.count - offset }

    /// Adds bytes at the end; the body must still be open.
    func append(_ more: [UInt8]) {
        precondition(!isComplete, "request bytes appended after the last")
        // Sent bytes are dropped once they are at least half the buffer, so the copy stays amortized.
        if offset > 0 && offset * 2 >= bytes.count {
            bytes.removeFirst(offset)
            offset = 0
        }
        bytes.append(contentsOf: more)
    }

    /// Marks the body complete: once what is pending is sent, the stream half-closes.
    func complete() {
        isComplete = true
    }

    /// Copies up to `length` pending bytes into `buffer`.
    func read(into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> Read {
        let count = min(length, pendingCount)
        guard count > 0 || isComplete else { return .deferred }
        if count > 0 {
            bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + offset, count: count) }
        }
        offset += count
        let isLast = isComplete && offset == bytes.count
        if isLast {
            bytes = []
            offset = 0
        }
        if count > 0 { onTaken?() }
        return .bytes(count, isLast: isLast)
    }
}
