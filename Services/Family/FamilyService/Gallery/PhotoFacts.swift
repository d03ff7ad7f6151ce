/// The formats a gallery photo may have, told by its bytes and never by a file name or declared type.
enum PhotoFormat: String, Equatable, Sendable {
    case jpeg
    case png

    /// The media type a download is served with.
    var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }
}

/// What the bytes of an accepted photo say about it, read while it streamed in.
struct PhotoFacts: Equatable, Sendable {
    var format: PhotoFormat
    var width: Int
    var height: Int
    /// The EXIF orientation (2–8) kept in the stored JPEG; nil when the photo is upright (1) or says nothing.
    var orientation: Int?
}

/// The bounds an upload is held to.
enum PhotoLimits {
    /// The largest upload accepted, in bytes (DESIGN: at most 10 MB a photo).
    static let maxByteCount = 10 * 1024 * 1024
    /// The most pixels a photo may declare: 100 megapixels is past any phone camera, and it bounds
    /// what decoding a small, highly compressed file (a decompression bomb) would cost a viewer.
    static let maxPixelCount = 100_000_000
}
