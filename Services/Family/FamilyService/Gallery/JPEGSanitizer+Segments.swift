/// Which JPEG segments are stored. Kept: what decoding needs (frame and scan headers, Huffman and
/// quantization tables, restart interval), APP0 (JFIF: pixel density; its thumbnail, if any, goes), APP14 (Adobe: whether the
/// components are YCbCr or RGB/CMYK; without it CMYK photos decode with wrong colours) and APP2 ICC
/// profiles (a phone's Display P3 photo shown without its profile loses its colours; a profile
/// describes the colour space, not the person or the place). Everything else is dropped: APP1 (Exif
/// with its GPS IFD, XMP), APP13 (IPTC, Photoshop), other APPn (maker notes, MPF), COM, and any marker
/// not listed. The orientation survives as a new APP1 that holds nothing else.
extension JPEGSanitizer {
    mutating func handleSegment(_ marker: UInt8, _ payload: ArraySlice<UInt8>, into output: inout [UInt8])
        throws(PhotoRejection)
    {
        switch marker {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
            try readFrameHeader(payload)
            keep(marker, payload, into: &output)
        case 0xDA:
            guard frame != nil else { throw .damagedHeader("a scan (SOS) before the frame header") }
            sawScan = true
            keep(marker, payload, into: &output)
        case 0xC4, 0xCC, 0xDB, 0xDC, 0xDD, 0xEE:
            keep(marker, payload, into: &output)
        case 0xE0 where payload.starts(with: Self.jfifIdentifier) && payload.count >= 14:
            // Density kept, thumbnail not: a thumbnail can show what an edit cropped out of the photo.
            keep(marker, payload.prefix(12) + [0, 0], into: &output)
        case 0xE2 where payload.starts(with: Self.iccIdentifier):
            keep(marker, payload, into: &output)
        case 0xE1 where payload.starts(with: ExifOrientation.identifier):
            guard orientation == nil, let value = ExifOrientation.read(payload), value != 1 else { return }
            orientation = value
            output += ExifOrientation.segment(orientation: value)
        default:
            return
        }
    }

    /// "JFIF\0", which opens the APP0 segment of a JFIF file (a JFXX extension APP0 holds only a thumbnail).
    static let jfifIdentifier: [UInt8] = Array("JFIF".utf8) + [0]

    /// "ICC_PROFILE\0", which opens each APP2 segment of an ICC profile.
    static let iccIdentifier: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// Reads width and height from a frame header (SOFn): precision, height, width, components.
    private mutating func readFrameHeader(_ payload: ArraySlice<UInt8>) throws(PhotoRejection) {
        guard frame == nil else { throw .damagedHeader("a second frame header") }
        let bytes = Array(payload)
        guard bytes.count >= 6 else { throw .damagedHeader("a frame header of \(bytes.count) bytes") }
        let height = Int(bytes[1]) << 8 | Int(bytes[2])
        let width = Int(bytes[3]) << 8 | Int(bytes[4])
        // A height of 0 means "given later by a DNL segment": no viewer we serve handles that, so it is refused.
        guard width > 0, height > 0 else { throw .noDimensions }
        guard width * height <= PhotoLimits.maxPixelCount else {
            throw .tooManyPixels(width: width, height: height)
        }
        frame = (width, height)
    }

    private func keep(_ marker: UInt8, _ payload: ArraySlice<UInt8>, into output: inout [UInt8]) {
        let length = payload.count + 2
        output += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
        output += payload
    }
}
