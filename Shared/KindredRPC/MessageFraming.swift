/// One gRPC length-prefixed message as received: its compressed flag and payload.
struct FramedMessage: Equatable {
    var compressed: Bool
    var bytes: [UInt8]
}

/// Why a received message stream is malformed.
enum FramingError: Error, Equatable {
    /// The length prefix announces more than the receive limit.
    case tooLarge(size: Int, limit: Int)
    /// The flag byte is neither 0 nor 1.
    case invalidFlag(UInt8)
}

/// Reassembles 5-byte length-prefixed gRPC messages from DATA chunks split anywhere.
struct MessageDeframer {
    /// The largest payload accepted.
    var maxMessageSize: Int

    private var headerFill = 0
    private var flag: UInt8 = 0
    private var length = 0
    private var body: [UInt8] = []
    private var inBody = false

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// Whether no message is partly received: the stream may end here.
    var isAtMessageBoundary: Bool { headerFill == 0 && !inBody }

    /// Consumes a chunk, handing each completed message to `emit`.
    mutating func consume(_ chunk: UnsafeRawBufferPointer, _ emit: (FramedMessage) -> Void)
        throws(FramingError)
    {
        var offset = 0
        while offset < chunk.count {
            if inBody {
                let take = min(length - body.count, chunk.count - offset)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[offset..<offset + take]))
                offset += take
            } else {
                let byte = chunk[offset]
                offset += 1
                if headerFill == 0 { flag = byte } else { length = length << 8 | Int(byte) }
                headerFill += 1
                if headerFill < 5 { continue }
                guard flag <= 1 else { throw .invalidFlag(flag) }
                guard length <= maxMessageSize else { throw .tooLarge(size: length, limit: maxMessageSize) }
                inBody = true
                body = []
                body.reserveCapacity(length)
            }
            if inBody && body.count == length {
                emit(FramedMessage(compressed: flag == 1, bytes: body))
                body = []
                inBody = false
                headerFill = 0
                length = 0
            }
        }
    }

    /// Appends `payload` to `buffer` with its 5-byte prefix.
    static func frame(_ payload: [UInt8], compressed: Bool, into buffer: inout [UInt8]) {
        let count = UInt32(truncatingIfNeeded: payload.count)
        buffer.append(compressed ? 1 : 0)
        buffer.append(UInt8(truncatingIfNeeded: count >> 24))
        buffer.append(UInt8(truncatingIfNeeded: count >> 16))
        buffer.append(UInt8(truncatingIfNeeded: count >> 8))
        buffer.append(UInt8(truncatingIfNeeded: count))
        buffer.append(contentsOf: payload)
    }
}
