/// Reads an uploaded photo chunk by chunk and gives back, chunk by chunk, the bytes to store. It tells
/// JPEG from PNG by the first bytes (never a name or a declared type), checks the header and structure
/// as they stream by (PNG: IHDR and every CRC; JPEG: segments, the frame header, EOI), and strips
/// location and other metadata (`JPEGSanitizer+Segments.swift`, `PNGSanitizer+Chunks.swift`).
/// It holds at most one JPEG segment (64 KiB) besides the chunk in hand: never the whole photo.
///
///     var sanitizer = PhotoSanitizer()
///     for try await chunk in upload { try store.write(try sanitizer.consume(chunk)) }
///     let facts = try sanitizer.finish()   // format, width, height, orientation
///
/// Any `PhotoRejection` ends the upload; its `refusal` is the caller's answer.
struct PhotoSanitizer {
    // Optionals rather than an enum with payloads: mutating `jpeg?` in place keeps its buffer uniquely
    // referenced, where taking a payload out of an enum and putting it back would copy it every chunk.
    /// The first bytes, until they tell the format.
    private var start: [UInt8] = []
    private var jpeg: JPEGSanitizer?
    private var png: PNGSanitizer?
    /// Bytes received so far.
    private(set) var receivedByteCount = 0
    let maxByteCount: Int

    init(maxByteCount: Int = PhotoLimits.maxByteCount) {
        self.maxByteCount = maxByteCount
    }

    /// Reads the next chunk of the upload; returns the bytes to store (possibly none yet).
    mutating func consume(_ chunk: [UInt8]) throws(PhotoRejection) -> [UInt8] {
        receivedByteCount += chunk.count
        guard receivedByteCount <= maxByteCount else { throw .tooLarge }
        var output: [UInt8] = []
        if jpeg != nil {
            try jpeg?.consume(chunk, into: &output)
        } else if png != nil {
            try png?.consume(chunk, into: &output)
        } else {
            start += chunk
            try decide(into: &output)
        }
        return output
    }

    /// The photo's facts once the upload has ended; throws if it is incomplete.
    func finish() throws(PhotoRejection) -> PhotoFacts {
        if let jpeg { return try jpeg.finish() }
        if let png { return try png.finish() }
        throw start.isEmpty || !isSignaturePrefix ? .notJPEGOrPNG : .truncated
    }

    /// SOI and the first byte of the next marker: every JPEG starts so.
    private static let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Whether the bytes so far could still open a PNG or a JPEG.
    private var isSignaturePrefix: Bool {
        PNGSanitizer.signature.starts(with: start) || Self.jpegStart.starts(with: start)
    }

    /// Picks the parser once enough bytes have arrived to know the format.
    private mutating func decide(into output: inout [UInt8]) throws(PhotoRejection) {
        let bytes = start
        if bytes.starts(with: Self.jpegStart) {
            start = []
            jpeg = JPEGSanitizer()
            try jpeg?.consume(bytes, into: &output)
        } else if bytes.starts(with: PNGSanitizer.signature) {
            start = []
            png = PNGSanitizer()
            try png?.consume(bytes, into: &output)
        } else if !isSignaturePrefix {
            throw .notJPEGOrPNG
        }
    }
}
