@testable import FamilyService
import Foundation

/// Real images from CPython's test data (`Lib/test/imghdrdata/python.jpg` and `python.png`: 16×16, PSF
/// licence), and copies carrying the metadata a phone camera writes, built here byte by byte.
enum PhotoFixtures {
    static let jpeg = base64(
        """
        /9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8Q\
        EBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ\
        EBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQID\
        BAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/\
        2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx\
        4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+\
        Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolv\
        w4KOp1KM6iCNvngZHwetf//Z
        """)

    static let png = base64(
        """
        iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAIGNIUk0AAHomAACAhAAA+gAAAIDoAAB1MAAA6mAAADqYAAAXcJy6\
        UTwAAAHFUExURQAAAE6NwEqGujxxnjdolgAAAAAAAAAAAAAAAAAAAE6PxEyKv0iFtkN9rT10oTlsljZmkAAAAAAAAFKRxv3dSvnV\
        PgAAADJghwAAAP3VNgAAADVokgAAAOzORQAAADZpkxsxRQAAAAAAAOLDRf3ZQQAAAEaBsjZnkQAAAPLhbv3pav3LG0N9rhwyS/Xj\
        b/PBGkB1oz1zogAAAMKaEgAAAAAAAAAAAAAAAAAAAOjHPevFNOvCKuu+Ieu7GMabEgAAAAAAAAAAAAAAAAAAAAAAAAAAAP3eTgAA\
        AAAAAAAAAAAAAPHQP/rTOf3SL/rHGcCXEgAAAAAAAAAAAAAAAAAAAAAAAEiDtER+rUB4p0yKvP///0V/r0F5qD50ojpvmzZplEmF\
        t0aAsUJ7qj51oztwnTdqljhsl0+NwUuIu0R9rUB4pj1zoDltmf/iVVCPw0yJvEiEtT10of/eS//aQU2LvkaAsDtwnP/aQv/WN//T\
        LUqHuUeBskN8qz92pf/XOP/PI//mYf/jV//fTf/bQv/TLv/PJP/rbP/nYf/bQ//XOf/MHDpwnP/nYv/jWP/fTv/TL//bRP/XOv/T\
        MP/QJf/YOv/UMP/QJpJJAAIAAABWdFJOUwCv7feSCwMoQRV+oKGjp6qqSBi994IKtkPtJPdPiD22XExHa/dG96pOpvf311uzwm/3\
        S3o0CCE8NaqpqampeSACCRMSLB73QBwFAUzM99h7Ox1CRTgf+DIQcQAAAAFiS0dEWgO7paIAAAD1SURBVBjTY2AAAkamsPAIZhZW\
        NgYoiIyKjomNi2dnhQkkJCYlp6TGc3CCeVzcPLx8/AJp8fGCQiC+cHpGWGZWdk48UCBXRFSMIS+/IDqmMA7IF5coKpaUYihJKE1K\
        LkuNlxaXkS2vqJRjqKquqZVXUBRU4lBWqausV2VQy8xS19DUamhsaq5radVWYtCJKdTVa2tvbOrobGnt0udgMDDsNmrr6e3r6Oxv\
        7eoyNmEwNTO3APItraxtbG3tOOwZHBydnHv7JkycNLmLw8LFFeJ6twlTpk6L0nb3cPT0Agt4+/hO6/LzD3CGec400CJIKTgk1BTI\
        BgBAYkJ/yC2b5QAAACV0RVh0ZGF0ZTpjcmVhdGUAMjAxNC0wMS0yNlQyMDo1OTozNyswMjowMPuaB3cAAAAldEVYdGRhdGU6bW9k\
        aWZ5ADIwMTQtMDEtMjZUMjA6NTk6MDArMDI6MDDB74amAAAAAElFTkSuQmCC
        """)

    /// The GPS IFD's latitude, 51° 30′ 26″, as the three big-endian rationals Exif stores.
    static let gpsLatitude: [UInt8] = [51, 30, 26].flatMap { [0, 0, 0, UInt8($0), 0, 0, 0, 1] }
    static let cameraMake = Array("SpyCam".utf8)
    static let comment = Array("Taken at 12 Elm Street".utf8)
    static let xmp = Array(
        "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>exif:GPSLatitude 51,30N</x:xmpmeta>".utf8)
    static let iccProfile = JPEGSanitizer.iccIdentifier + [1, 1] + Array("a colour profile".utf8)
    static let adobe = Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1]

    /// The JPEG with, after its APP0: Exif (camera make, `orientation`, a GPS IFD), XMP, Photoshop
    /// IPTC, a comment, an MPF index, an ICC profile and an Adobe segment.
    static func jpegWithMetadata(orientation: Int = 6, littleEndian: Bool = false) -> [UInt8] {
        let added =
            segment(
                0xE1, ExifOrientation.identifier + exif(orientation: orientation, littleEndian: littleEndian))
            + segment(0xE1, xmp) + segment(0xED, Array("Photoshop 3.0\u{0}8BIM location".utf8))
            + segment(0xFE, comment) + segment(0xE2, Array("MPF\u{0}MM".utf8)) + segment(0xE2, iccProfile)
            + segment(0xEE, adobe)
        return Array(jpeg[0..<20]) + added + Array(jpeg[20...])
    }

    /// The PNG with eXIf (the same Exif), tIME, iTXt (XMP) and zTXt before its IDAT; it has tEXt already.
    static func pngWithMetadata() -> [UInt8] {
        let idat = index(of: Array("IDAT".utf8), in: png) - 4
        let added =
            chunk("eXIf", exif(orientation: 6, littleEndian: false))
            + chunk("tIME", [7, 234, 11, 25, 20, 0, 0])
            + chunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0".utf8) + xmp)
            + chunk("zTXt", Array("Comment\0\0".utf8) + [120, 156])
        return Array(png[..<idat]) + added + Array(png[idat...])
    }

    /// Exif's TIFF part: IFD0 with Make, Orientation and a GPS IFD pointer; the GPS IFD with the latitude.
    static func exif(orientation: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }
        func u32(_ value: Int) -> [UInt8] {
            let bytes = [
                UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
                UInt8(value & 0xFF),
            ]
            return littleEndian ? bytes.reversed() : bytes
        }
        let order: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        // IFD0 at 8 (3 entries, ends at 50), "SpyCam\0" at 50, the GPS IFD at 58 (2 entries), rationals at 88.
        let ifd0 =
            u16(3) + u16(0x010F) + u16(2) + u32(7) + u32(50) + u16(0x0112) + u16(3) + u32(1)
            + u16(orientation)
            + u16(0) + u16(0x8825) + u16(4) + u32(1) + u32(58) + u32(0)
        let gps =
            u16(2) + u16(0x0001) + u16(2) + u32(2) + [0x4E, 0, 0, 0] + u16(0x0002) + u16(5) + u32(3) + u32(88)
            + u32(0)
        let rationals = [51, 30, 26].flatMap { u32($0) + u32(1) }
        return order + u16(42) + u32(8) + ifd0 + cameraMake + [0, 0] + gps + rationals
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        crc.add(Array(type.utf8) + data)
        return bigEndian(data.count) + Array(type.utf8) + data + bigEndian(Int(crc.value))
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Where `needle` first occurs in `haystack`; -1 when it does not.
    static func index(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard haystack.count >= needle.count else { return -1 }
        return (0...(haystack.count - needle.count)).first {
            haystack[$0..<$0 + needle.count].elementsEqual(needle)
        } ?? -1
    }

    private static func base64(_ text: String) -> [UInt8] {
        Array(Data(base64Encoded: text)!)
    }
}
