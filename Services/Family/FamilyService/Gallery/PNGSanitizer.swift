/// Walks a PNG as it streams in: signature, then chunks (length, type, data, CRC). A chunk's data is
/// passed through (or skipped) as it arrives and its CRC checked as it goes, so a 10 MB IDAT is never
/// held; only IHDR's 13 bytes are read whole. Chunks are kept or dropped by `PNGSanitizer+Chunks.swift`.
struct PNGSanitizer {
    private enum State {
        case signature
        case chunkHeader
        case header
        case chunkData(remaining: Int)
        case chunkCRC
        case ended
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private var input = PhotoByteQueue()
    private var state = State.signature
    private var chunkType: [UInt8] = []
    private var keepsChunk = false
    private var crc = CRC32()
    /// Width and height from IHDR, once its CRC checked out.
    private var size: (width: Int, height: Int)?
    private var pendingSize: (width: Int, height: Int)?
    private var sawImageData = false

    /// Reads `chunk`, appending to `output` the bytes to store.
    mutating func consume(_ chunk: [UInt8], into output: inout [UInt8]) throws(PhotoRejection) {
        input.append(chunk)
        while try step(into: &output) {}
    }

    /// The photo's facts once every byte was read; throws if it ended before IEND.
    func finish() throws(PhotoRejection) -> PhotoFacts {
        guard case .ended = state, let size else { throw .truncated }
        return PhotoFacts(format: .png, width: size.width, height: size.height, orientation: nil)
    }

    /// Advances by one part; false when it needs more input.
    private mutating func step(into output: inout [UInt8]) throws(PhotoRejection) -> Bool {
        switch state {
        case .signature:
            guard let bytes = input.take(8) else { return false }
            guard bytes.elementsEqual(Self.signature) else { throw .notJPEGOrPNG }
            output += bytes
            state = .chunkHeader
        case .chunkHeader:
            guard let bytes = input.take(8) else { return false }
            try begin(length: Self.integer(bytes.prefix(4)), type: Array(bytes.suffix(4)))
            if keepsChunk { output += bytes }
        case .header:
            guard let bytes = input.take(13) else { return false }
            crc.add(bytes)
            pendingSize = (Self.integer(bytes.prefix(4)), Self.integer(bytes.dropFirst(4).prefix(4)))
            try Self.checkHeaderFields(Array(bytes.suffix(5)))
            output += bytes
            state = .chunkCRC
        case .chunkData(let remaining):
            let bytes = input.take(upTo: remaining)
            guard !bytes.isEmpty || remaining == 0 else { return false }
            crc.add(bytes)
            if keepsChunk { output += bytes }
            state = remaining == bytes.count ? .chunkCRC : .chunkData(remaining: remaining - bytes.count)
        case .chunkCRC:
            guard let bytes = input.take(4) else { return false }
            try endChunk(storedCRC: Self.integer(bytes))
            if keepsChunk { output += bytes }
        case .ended:
            input.discardAll()  // bytes after IEND are not part of the image
            return false
        }
        return true
    }

    /// Checks a chunk's header against where it stands and decides whether it is stored.
    private mutating func begin(length: Int, type: [UInt8]) throws(PhotoRejection) {
        guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw size == nil
                ? .damagedHeader("the first chunk has no valid type") : .damaged("a chunk with no valid type")
        }
        guard length <= Int(Int32.max) else { throw .damaged("a chunk longer than 2^31-1 bytes") }
        let isHeader = type == Self.headerType
        if size == nil {
            guard isHeader, length == 13 else {
                throw .damagedHeader("the first chunk is not a 13-byte IHDR")
            }
        } else if isHeader {
            throw .damaged("a second IHDR")
        }
        keepsChunk = try Self.keeps(type)
        if type == Self.imageDataType { sawImageData = true }
        if type == Self.endType && !sawImageData { throw .damaged("IEND before any IDAT") }
        chunkType = type
        crc = CRC32()
        crc.add(type)
        state = isHeader ? .header : .chunkData(remaining: length)
    }

    /// Compares the CRC; after IHDR, checks the dimensions it declared.
    private mutating func endChunk(storedCRC: Int) throws(PhotoRejection) {
        let isHeader = chunkType == Self.headerType
        guard storedCRC == Int(crc.value) else {
            let name = String(decoding: chunkType, as: UTF8.self)
            throw isHeader ? .damagedHeader("IHDR fails its CRC") : .damaged("\(name) fails its CRC")
        }
        if isHeader, let pendingSize {
            try Self.checkDimensions(pendingSize)
            size = pendingSize
        }
        state = chunkType == Self.endType ? .ended : .chunkHeader
    }

    /// A big-endian unsigned integer.
    static func integer(_ bytes: some Collection<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
