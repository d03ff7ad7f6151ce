@testable import FamilyService
import KindredRPC
import Testing

/// Uploads judged by their bytes, chunk by chunk, and stored without location or other metadata.
@Suite struct PhotoSanitizerTests {
    /// Feeds `bytes` in chunks of `size`; the stored bytes and the photo's facts.
    static func sanitize(
        _ bytes: [UInt8], chunkSize size: Int = 1 << 20, maxByteCount: Int = PhotoLimits.maxByteCount
    )
        throws(PhotoRejection) -> (stored: [UInt8], facts: PhotoFacts)
    {
        var sanitizer = PhotoSanitizer(maxByteCount: maxByteCount)
        var stored: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            stored += try sanitizer.consume(Array(bytes[start..<min(start + size, bytes.count)]))
        }
        return (stored, try sanitizer.finish())
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        PhotoFixtures.index(of: needle, in: haystack) >= 0
    }

    @Test func aJPEGIsKnownByItsBytesWithItsSize() throws {
        let (stored, facts) = try Self.sanitize(PhotoFixtures.jpeg)
        #expect(facts == PhotoFacts(format: .jpeg, width: 16, height: 16, orientation: nil))
        #expect(stored == PhotoFixtures.jpeg)  // nothing in it to strip
    }

    @Test func aPNGIsKnownByItsBytesWithItsSizeAndEveryCRCChecked() throws {
        let (stored, facts) = try Self.sanitize(PhotoFixtures.png)
        #expect(facts == PhotoFacts(format: .png, width: 16, height: 16, orientation: nil))
        #expect(!Self.contains(stored, Array("tEXt".utf8)))
        #expect(stored.count == PhotoFixtures.png.count - 2 * (12 + 37))
    }

    @Test func gpsAndEveryOtherJPEGMetadataAreGoneButOrientationColourAndScanSurvive() throws {
        let original = PhotoFixtures.jpegWithMetadata(orientation: 6)
        #expect(Self.contains(original, PhotoFixtures.gpsLatitude))
        let (stored, facts) = try Self.sanitize(original)
        #expect(facts == PhotoFacts(format: .jpeg, width: 16, height: 16, orientation: 6))
        for secret in [
            PhotoFixtures.gpsLatitude, PhotoFixtures.cameraMake, PhotoFixtures.comment, Array("xmpmeta".utf8),
            Array("8BIM".utf8), Array("MPF".utf8),
        ] {
            #expect(!Self.contains(stored, secret), "\(String(decoding: secret, as: UTF8.self)) was stored")
        }
        #expect(Self.contains(stored, ExifOrientation.segment(orientation: 6)))
        #expect(Self.contains(stored, PhotoFixtures.segment(0xE2, PhotoFixtures.iccProfile)))
        #expect(Self.contains(stored, PhotoFixtures.segment(0xEE, PhotoFixtures.adobe)))
        // Everything from the first quantization table to EOI (tables, frame, scan data) is byte for byte the original's.
        let imageStart = PhotoFixtures.index(of: [0xFF, 0xDB], in: PhotoFixtures.jpeg)
        #expect(stored.suffix(PhotoFixtures.jpeg.count - imageStart) == PhotoFixtures.jpeg[imageStart...])
        // What is stored is a photo the sanitizer accepts again unchanged, orientation included.
        let (again, facts2) = try Self.sanitize(stored)
        #expect(again == stored && facts2 == facts)
    }

    @Test(arguments: [false, true])
    func orientationIsReadInEitherByteOrder(littleEndian: Bool) throws {
        let exif = ExifOrientation.identifier + PhotoFixtures.exif(orientation: 8, littleEndian: littleEndian)
        #expect(ExifOrientation.read(ArraySlice(exif)) == 8)
        let (_, facts) = try Self.sanitize(
            PhotoFixtures.jpegWithMetadata(orientation: 8, littleEndian: littleEndian))
        #expect(facts.orientation == 8)
    }

    @Test func anUprightPhotoGetsNoExifAtAll() throws {
        let (stored, facts) = try Self.sanitize(PhotoFixtures.jpegWithMetadata(orientation: 1))
        #expect(facts.orientation == nil)
        #expect(!Self.contains(stored, ExifOrientation.identifier))
    }

    @Test func pngTextTimeAndExifChunksAreGoneAndColourAndPixelsStay() throws {
        let original = PhotoFixtures.pngWithMetadata()
        #expect(Self.contains(original, PhotoFixtures.gpsLatitude))
        let (stored, facts) = try Self.sanitize(original)
        #expect(facts == PhotoFacts(format: .png, width: 16, height: 16, orientation: nil))
        for type in ["eXIf", "tIME", "iTXt", "zTXt", "tEXt"] {
            #expect(!Self.contains(stored, Array(type.utf8)), "\(type) was stored")
        }
        #expect(!Self.contains(stored, PhotoFixtures.gpsLatitude))
        for type in ["IHDR", "cHRM", "PLTE", "tRNS", "bKGD", "IDAT", "IEND"] {
            #expect(Self.contains(stored, Array(type.utf8)), "\(type) was dropped")
        }
        let (again, _) = try Self.sanitize(stored)  // every kept chunk still passes its CRC
        #expect(again == stored)
    }

    @Test(arguments: [1, 2, 3, 5, 13, 64, 333])
    func anyChunkingStoresTheSameBytes(chunkSize: Int) throws {
        for photo in [PhotoFixtures.jpegWithMetadata(), PhotoFixtures.pngWithMetadata()] {
            let whole = try Self.sanitize(photo)
            let chunked = try Self.sanitize(photo, chunkSize: chunkSize)
            #expect(chunked.stored == whole.stored && chunked.facts == whole.facts)
        }
    }

    @Test func aJFIFThumbnailIsNotStoredButTheDensityIs() throws {
        // APP0 "JFIF" 1.1, 72 × 72 dpi, with a 1 × 1 RGB thumbnail of pure red.
        let jfif = Array("JFIF".utf8) + [0, 1, 1, 1, 0, 72, 0, 72, 1, 1, 0xFA, 0x01, 0x02]
        let photo =
            Array(PhotoFixtures.jpeg[0..<2]) + PhotoFixtures.segment(0xE0, jfif)
            + Array(PhotoFixtures.jpeg[20...])
        let (stored, _) = try Self.sanitize(photo)
        let expected: [UInt8] = [0xFF, 0xD8] + PhotoFixtures.segment(0xE0, Array(jfif.prefix(12)) + [0, 0])
        #expect(Array(stored.prefix(expected.count)) == expected)
        #expect(!Self.contains(stored, [0xFA, 0x01, 0x02]))
    }

    @Test func bytesAfterTheEndOfImageAreNotStored() throws {
        let trailer = Array("a motion photo's video with its own location".utf8)
        let (stored, _) = try Self.sanitize(PhotoFixtures.jpeg + trailer)
        #expect(stored == PhotoFixtures.jpeg)
    }
}
