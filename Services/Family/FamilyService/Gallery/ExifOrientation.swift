/// The one EXIF tag the gallery keeps: Orientation (0x0112), which says how a camera held sideways
/// wants the picture turned. Everything else in Exif (the GPS IFD, camera serial numbers, times) goes.
enum ExifOrientation {
    /// "Exif\0\0", which opens an APP1 segment holding Exif.
    static let identifier: [UInt8] = Array("Exif".utf8) + [0, 0]

    private static let orientationTag = 0x0112
    private static let shortType = 3

    /// The Orientation of IFD0 in an APP1 Exif payload, if it holds a valid one (1–8).
    static func read(_ payload: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(payload.dropFirst(identifier.count))
        guard bytes.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            let field = bytes[offset..<offset + size]
            return (bigEndian ? Array(field) : field.reversed()).reduce(0) { $0 << 8 | Int($1) }
        }
        guard integer(at: 2, size: 2) == 42, let directory = integer(at: 4, size: 4),
            let count = integer(at: directory, size: 2)
        else { return nil }
        for index in 0..<count {
            let entry = directory + 2 + index * 12
            guard let tag = integer(at: entry, size: 2) else { return nil }
            guard tag == orientationTag else { continue }
            guard integer(at: entry + 2, size: 2) == shortType, let value = integer(at: entry + 8, size: 2),
                (1...8).contains(value)
            else { return nil }
            return value
        }
        return nil
    }

    /// A complete APP1 segment (marker included) whose Exif holds only `orientation`: a big-endian TIFF
    /// header, then IFD0 with one entry and no next IFD.
    static func segment(orientation: Int) -> [UInt8] {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at offset 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation), 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        let length = 2 + identifier.count + tiff.count
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + identifier + tiff
    }
}
