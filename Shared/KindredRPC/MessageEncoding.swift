internal import CZlib

/// A gRPC message encoding (`grpc-encoding`): `identity` or `gzip`.
enum MessageEncoding: String, Sendable {
    case identity
    case gzip

    /// The `grpc-accept-encoding` value the server advertises.
    static let acceptedList = "identity,gzip"

    /// Why a compressed message could not be inflated.
    enum DecompressionError: Error {
        case tooLarge(limit: Int)
        case corrupt
    }

    /// Whether a comma-separated `grpc-accept-encoding` list names this encoding.
    func isListed(in acceptEncoding: String) -> Bool {
        acceptEncoding.split(separator: ",").contains { $0.trimmingSpaces == rawValue }
    }

    /// Gzip-compresses a payload.
    static func gzip(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip header and trailer.
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return input }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let produced = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                _ = deflate(&stream, Z_FINISH)
                return target.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Inflates a gzip (or zlib) payload, refusing output beyond `limit` bytes.
    static func gunzip(_ input: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 32 detects a gzip or zlib header automatically.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw .corrupt
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        var status = Z_OK
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while status == Z_OK && output.count <= limit {
                let produced = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_BUF_ERROR && produced > 0 { status = Z_OK }
            }
        }
        if output.count > limit { throw .tooLarge(limit: limit) }
        guard status == Z_STREAM_END else { throw .corrupt }
        return output
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return result
    }
}
