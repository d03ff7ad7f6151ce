import KindredRPC

/// Why an upload is not a photo the gallery stores: each case has a reason an app can act on.
enum PhotoRejection: Error, Equatable {
    /// Neither a JPEG nor a PNG signature.
    case notJPEGOrPNG
    /// The bytes stop before the image's end (no EOI, no IEND).
    case truncated
    /// The header (JPEG frame header, PNG IHDR) is malformed or fails its CRC; the text is for the log.
    case damagedHeader(String)
    /// The structure after the header is malformed; the text is for the log.
    case damaged(String)
    /// A width or height of zero.
    case noDimensions
    /// More pixels than `PhotoLimits.maxPixelCount`.
    case tooManyPixels(width: Int, height: Int)
    /// More bytes than `PhotoLimits.maxByteCount`.
    case tooLarge
}

extension PhotoRejection {
    /// The answer a caller gets: INVALID_ARGUMENT with a `kindred.family` reason; what exactly was
    /// wrong with the bytes goes to the log as the cause.
    var refusal: RPCError {
        let answer: RPCError =
            switch self {
            case .notJPEGOrPNG:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_FORMAT_UNSUPPORTED",
                    "This file is not a JPEG or PNG photo. Choose a photo in one of those formats.")
            case .truncated:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_TRUNCATED",
                    "This photo did not arrive whole. Please upload it again.")
            case .damagedHeader:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_HEADER_DAMAGED",
                    "This photo's header is damaged, so it cannot be shown. Choose another photo.")
            case .damaged:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_DAMAGED",
                    "This photo is damaged and cannot be shown. Choose another photo.")
            case .noDimensions:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_DIMENSIONS_EMPTY",
                    "This photo has no width or height. Choose another photo.")
            case .tooManyPixels:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_DIMENSIONS_TOO_LARGE",
                    "This photo has more than 100 megapixels. Choose a smaller photo.")
            case .tooLarge:
                FamilyError.refusal(
                    .invalidArgument, "PHOTO_TOO_LARGE",
                    "This photo is larger than 10 MB. Choose a smaller photo.")
            }
        return answer.with(cause: self)
    }
}
