/// Follows the frame boundaries of a connection's inbound bytes, to see the frames nghttp2 skips without a
/// callback (DATA for a stream that is gone), so that a flood of them is counted like any other.
struct FrameHeaderScanner {
    /// A frame header: its type, flags, stream and payload length.
    struct Header {
        var type: UInt8
        var flags: UInt8
        var streamID: Int32
        var length: Int
    }

    /// The client connection preface, `PRI * HTTP/2.0…`, comes before the first frame.
    private var skip = 24
    private var partial: [UInt8] = []

    /// Reports each frame header that completes in `bytes`, in order.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, _ each: (Header) -> Void) {
        var offset = 0
        while offset < bytes.count {
            if skip > 0 {
                let skipped = min(skip, bytes.count - offset)
                skip -= skipped
                offset += skipped
                continue
            }
            if partial.isEmpty && bytes.count - offset >= 9 {
                report(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 9]), each)
                offset += 9
                continue
            }
            let taken = min(9 - partial.count, bytes.count - offset)
            partial += bytes[offset..<offset + taken]
            offset += taken
            if partial.count == 9 {
                partial.withUnsafeBytes { report($0, each) }
                partial.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func report(_ header: UnsafeRawBufferPointer, _ each: (Header) -> Void) {
        let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
        let stream =
            (UInt32(header[5]) << 24 | UInt32(header[6]) << 16 | UInt32(header[7]) << 8 | UInt32(header[8]))
            & 0x7FFF_FFFF
        skip = length
        each(Header(type: header[3], flags: header[4], streamID: Int32(stream), length: length))
    }
}

extension ConnectionState.FrameHeader {
    /// As much of a scanned header as the flood guard judges.
    init(_ header: FrameHeaderScanner.Header) {
        self.init(type: header.type, flags: header.flags, length: header.length)
    }
}
