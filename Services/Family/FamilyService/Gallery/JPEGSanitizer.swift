/// Walks a JPEG as it streams in: SOI, marker segments (each held whole, at most 64 KiB), entropy-coded
/// scan data (passed through as it arrives), and EOI. Segments are kept or dropped by
/// `JPEGSanitizer+Segments.swift`; what is kept goes to the output unchanged, in order.
struct JPEGSanitizer {
    private enum State {
        case startOfImage
        case marker
        case segmentLength(marker: UInt8)
        case segment(marker: UInt8, length: Int)
        case scanData
        case ended
    }

    private var input = PhotoByteQueue()
    private var state = State.startOfImage
    /// Width and height from the frame header (SOFn).
    var frame: (width: Int, height: Int)?
    /// Whether a scan (SOS) has started: image data exists.
    var sawScan = false
    /// The orientation written into the output, if the original had one other than upright.
    var orientation: Int?

    /// Reads `chunk`, appending to `output` the bytes to store.
    mutating func consume(_ chunk: [UInt8], into output: inout [UInt8]) throws(PhotoRejection) {
        input.append(chunk)
        while try step(into: &output) {}
    }

    /// The photo's facts once every byte was read; throws if it ended before its EOI.
    func finish() throws(PhotoRejection) -> PhotoFacts {
        guard case .ended = state else { throw .truncated }
        guard let frame else { throw .damagedHeader("no frame header (SOFn) before EOI") }
        return PhotoFacts(format: .jpeg, width: frame.width, height: frame.height, orientation: orientation)
    }

    /// Advances by one part; false when it needs more input.
    private mutating func step(into output: inout [UInt8]) throws(PhotoRejection) -> Bool {
        switch state {
        case .startOfImage:
            guard let soi = input.take(2) else { return false }
            guard soi.elementsEqual([0xFF, 0xD8]) else { throw .notJPEGOrPNG }
            output += soi
            state = .marker
        case .marker:
            guard let marker = try takeMarker() else { return false }
            try begin(marker, into: &output)
        case .segmentLength(let marker):
            guard let bytes = input.take(2) else { return false }
            let length = Int(bytes.first!) << 8 | Int(bytes.last!)
            guard length >= 2 else { throw .damaged("segment \(marker) declares length \(length)") }
            state = .segment(marker: marker, length: length - 2)
        case .segment(let marker, let length):
            guard let payload = input.take(length) else { return false }
            try handleSegment(marker, payload, into: &output)
            state = marker == 0xDA ? .scanData : .marker
        case .scanData:
            return try passScanData(into: &output)
        case .ended:
            // Bytes after EOI (a vendor trailer, a motion photo's video) are never stored.
            input.discardAll()
            return false
        }
        return true
    }

    /// The next marker's code, past any fill bytes (0xFF); nil until its code byte has arrived.
    private mutating func takeMarker() throws(PhotoRejection) -> UInt8? {
        var code: UInt8?
        try input.withUnread { bytes throws(PhotoRejection) in
            guard let first = bytes.first else { return 0 }
            guard first == 0xFF else { throw .damaged("expected a marker, found \(first)") }
            guard let index = bytes.dropFirst().firstIndex(where: { $0 != 0xFF }) else { return 0 }
            guard bytes[index] != 0x00 else { throw .damaged("a stuffed zero where a marker belongs") }
            code = bytes[index]
            return index + 1 - bytes.startIndex
        }
        return code
    }

    /// Starts the part a marker opens: a standalone marker, EOI, or a segment with a length.
    private mutating func begin(_ marker: UInt8, into output: inout [UInt8]) throws(PhotoRejection) {
        switch marker {
        case 0xD9:
            guard sawScan else { throw .damaged("EOI before any image data") }
            output += [0xFF, 0xD9]
            state = .ended
        case 0xD8:
            throw .damaged("a second SOI")
        case 0xD0...0xD7, 0x01:
            output += [0xFF, marker]  // RSTn and TEM stand alone: no length, no payload
        default:
            state = .segmentLength(marker: marker)
        }
    }

    /// Copies entropy-coded bytes through until a marker that is not a stuffed 0xFF00 or an RSTn.
    private mutating func passScanData(into output: inout [UInt8]) throws(PhotoRejection) -> Bool {
        var foundMarker = false
        try input.withUnread { bytes in
            var index = bytes.startIndex
            while index < bytes.endIndex {
                guard bytes[index] == 0xFF else {
                    index += 1
                    continue
                }
                guard index + 1 < bytes.endIndex else { break }  // the byte after 0xFF is yet to come
                let next = bytes[index + 1]
                guard next == 0x00 || (0xD0...0xD7).contains(next) else {
                    foundMarker = true
                    break
                }
                index += 2
            }
            output += bytes[bytes.startIndex..<index]
            return index - bytes.startIndex
        }
        if foundMarker { state = .marker }
        return foundMarker
    }
}
