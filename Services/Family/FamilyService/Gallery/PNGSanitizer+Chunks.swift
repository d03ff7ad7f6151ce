/// Which PNG chunks are stored. Kept: the critical chunks (IHDR, PLTE, IDAT, IEND), transparency (tRNS),
/// the colour chunks that make the pixels look right (iCCP, sRGB, gAMA, cHRM, cICP, sBIT, bKGD) and pHYs
/// (pixel density). Dropped: eXIf (Exif, GPS included), tEXt, zTXt, iTXt (XMP and free text: authors,
/// places, software), tIME, APNG's animation chunks (the still default image remains) and every chunk
/// not listed. An unknown critical chunk is refused: no decoder could show the image.
extension PNGSanitizer {
    static let headerType = Array("IHDR".utf8)
    static let imageDataType = Array("IDAT".utf8)
    static let endType = Array("IEND".utf8)

    private static let criticalTypes: Set<[UInt8]> = Set(
        ["IHDR", "PLTE", "IDAT", "IEND"].map { Array($0.utf8) })
    private static let keptAncillaryTypes: Set<[UInt8]> = Set(
        ["tRNS", "iCCP", "sRGB", "gAMA", "cHRM", "cICP", "sBIT", "bKGD", "pHYs"].map { Array($0.utf8) })

    /// Whether a chunk of this type is stored; throws for a critical chunk PNG does not define.
    static func keeps(_ type: [UInt8]) throws(PhotoRejection) -> Bool {
        // Bit 5 of the first letter (lower case) marks an ancillary chunk.
        guard type[0] & 0x20 != 0 else {
            guard criticalTypes.contains(type) else {
                throw .damaged("unknown critical chunk \(String(decoding: type, as: UTF8.self))")
            }
            return true
        }
        return keptAncillaryTypes.contains(type)
    }

    /// Bit depth, colour type, compression, filter and interlace as the PNG specification allows them.
    static func checkHeaderFields(_ fields: [UInt8]) throws(PhotoRejection) {
        let depth = fields[0], colourType = fields[1]
        let depths: [UInt8: Set<UInt8>] = [
            0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
        ]
        guard depths[colourType]?.contains(depth) == true else {
            throw .damagedHeader("IHDR colour type \(colourType) with bit depth \(depth)")
        }
        guard fields[2] == 0, fields[3] == 0, fields[4] <= 1 else {
            throw .damagedHeader("IHDR compression, filter or interlace method unknown")
        }
    }

    static func checkDimensions(_ size: (width: Int, height: Int)) throws(PhotoRejection) {
        guard size.width > 0, size.height > 0 else { throw .noDimensions }
        guard size.width <= Int(Int32.max), size.height <= Int(Int32.max) else {
            throw .damagedHeader("IHDR dimensions past 2^31-1")
        }
        guard size.width * size.height <= PhotoLimits.maxPixelCount else {
            throw .tooManyPixels(width: size.width, height: size.height)
        }
    }
}
