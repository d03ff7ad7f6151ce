@testable import FamilyService
import KindredRPC
import Testing

/// What is not a whole JPEG or PNG is refused, each with a reason of its own.
@Suite struct PhotoRejectionTests {
    typealias Fixtures = PhotoFixtures

    /// The PNG with its IHDR replaced by `fields` (width, height, depth, colour type, …) and, unless
    /// `validCRC` is false, a CRC that matches them.
    static func png(header fields: [UInt8], validCRC: Bool = true) -> [UInt8] {
        var chunk = Fixtures.chunk("IHDR", fields)
        if !validCRC { chunk[chunk.count - 1] ^= 0xFF }
        return Array(Fixtures.png[0..<8]) + chunk + Array(Fixtures.png[33...])
    }

    static let sixteenBySixteen = Fixtures.bigEndian(16) + Fixtures.bigEndian(16) + [8, 3, 0, 0, 0]

    /// The JPEG with its frame header declaring `width` × `height`.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        var bytes = Fixtures.jpeg
        let frame = Fixtures.index(of: [0xFF, 0xC0], in: bytes)
        bytes[frame + 5] = UInt8(height >> 8)
        bytes[frame + 6] = UInt8(height & 0xFF)
        bytes[frame + 7] = UInt8(width >> 8)
        bytes[frame + 8] = UInt8(width & 0xFF)
        return bytes
    }

    static let cases: [(String, [UInt8], PhotoRejection)] = [
        ("a text file", Array("Dear diary, today the baby smiled.\n".utf8), .notJPEGOrPNG),
        ("an empty upload", [], .notJPEGOrPNG),
        ("a GIF", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], .notJPEGOrPNG),
        ("two bytes of a JPEG", [0xFF, 0xD8], .truncated),
        ("a JPEG cut inside its scan", Array(Fixtures.jpeg.dropLast(40)), .truncated),
        ("a JPEG cut inside a table", Array(Fixtures.jpeg.prefix(60)), .truncated),
        ("a JPEG without its last byte", Array(Fixtures.jpeg.dropLast()), .truncated),
        ("a JPEG that is 0 pixels wide", jpeg(width: 0, height: 16), .noDimensions),
        (
            "a JPEG of 60,000 × 60,000", jpeg(width: 60_000, height: 60_000),
            .tooManyPixels(width: 60_000, height: 60_000)
        ),
        (
            "a JPEG whose segment is not a marker",
            Array(Fixtures.jpeg.prefix(20)) + [0x00, 0x11] + Array(Fixtures.jpeg.dropFirst(20)),
            .damaged("expected a marker, found 0")
        ),
        ("a PNG cut before IEND", Array(Fixtures.png.dropLast(12)), .truncated),
        (
            "a PNG with a broken IHDR CRC", png(header: sixteenBySixteen, validCRC: false),
            .damagedHeader("IHDR fails its CRC")
        ),
        (
            "a PNG with IHDR of 12 bytes",
            Array(Fixtures.png[0..<8]) + Fixtures.chunk("IHDR", Array(sixteenBySixteen.prefix(12)))
                + Array(Fixtures.png[33...]),
            .damagedHeader("the first chunk is not a 13-byte IHDR")
        ),
        (
            "a PNG 0 pixels high",
            png(header: Fixtures.bigEndian(16) + Fixtures.bigEndian(0) + [8, 3, 0, 0, 0]), .noDimensions
        ),
        (
            "a PNG with bit depth 7",
            png(header: Fixtures.bigEndian(16) + Fixtures.bigEndian(16) + [7, 3, 0, 0, 0]),
            .damagedHeader("IHDR colour type 3 with bit depth 7")
        ),
        (
            "a PNG of 20,000 × 20,000",
            png(header: Fixtures.bigEndian(20_000) + Fixtures.bigEndian(20_000) + [8, 3, 0, 0, 0]),
            .tooManyPixels(width: 20_000, height: 20_000)
        ),
        (
            "a PNG whose IDAT was damaged in transit",
            flipping(Fixtures.index(of: Array("IDAT".utf8), in: Fixtures.png) + 40, of: Fixtures.png),
            .damaged("IDAT fails its CRC")
        ),
    ]

    static func flipping(_ index: Int, of bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy[index] ^= 0x01
        return copy
    }

    @Test(arguments: cases.indices)
    func refusedWithItsReason(index: Int) {
        let (name, bytes, expected) = Self.cases[index]
        for chunkSize in [1, 7, 1 << 20] {
            #expect(throws: expected, "\(name), in chunks of \(chunkSize)") {
                try PhotoSanitizerTests.sanitize(bytes, chunkSize: chunkSize)
            }
        }
    }

    @Test func anUploadPastTheLimitIsRefusedBeforeItIsRead() {
        #expect(throws: PhotoRejection.tooLarge) {
            try PhotoSanitizerTests.sanitize(PhotoFixtures.jpeg, maxByteCount: 500)
        }
    }

    @Test(arguments: [
        (PhotoRejection.notJPEGOrPNG, "PHOTO_FORMAT_UNSUPPORTED"), (.truncated, "PHOTO_TRUNCATED"),
        (.damagedHeader("IHDR fails its CRC"), "PHOTO_HEADER_DAMAGED"), (.damaged("x"), "PHOTO_DAMAGED"),
        (.noDimensions, "PHOTO_DIMENSIONS_EMPTY"),
        (.tooManyPixels(width: 1, height: 1), "PHOTO_DIMENSIONS_TOO_LARGE"),
        (.tooLarge, "PHOTO_TOO_LARGE"),
    ])
    func eachRejectionIsAnInvalidArgumentWithItsReasonAndKeepsTheDetailForTheLog(
        rejection: PhotoRejection, reason: String
    ) {
        let error = rejection.refusal
        #expect(error.code == .invalidArgument)
        #expect(error.details.contains(.errorInfo(reason: reason, domain: "kindred.family", metadata: [:])))
        #expect(error.cause as? PhotoRejection == rejection)
        #expect(!error.message.contains("CRC") && !error.message.contains("IHDR"))
    }
}
