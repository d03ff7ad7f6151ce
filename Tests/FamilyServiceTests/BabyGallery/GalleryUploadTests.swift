import Foundation
import KindredMessages
import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// UploadPhoto against the real database and the filesystem store: the bytes decide the type, every refusal
/// leaves no row and no file, the gallery holds 1,000 photos, and what is stored carries no location.
@Suite struct GalleryUploadTests {
    @Test func aPNGNamedJpgIsStoredAsAPNGUnderItsName() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(
                PhotoFixtures.png, caption: "First smile", fileName: "smile.jpg")
            #expect(photo.mediaType == "image/png" && photo.fileName == "smile.jpg")
            #expect(photo.caption == "First smile" && photo.uploadedByUserID == home.mum.id)
            let downloaded = try await home.download(photo.photoID, as: home.grandma)
            #expect(downloaded.photo == photo)
            #expect(downloaded.bytes == (try PhotoSanitizerTests.sanitize(PhotoFixtures.png).stored))
            #expect(Int64(downloaded.bytes.count) == photo.byteCount)
            #expect(home.storedFiles() == [photo.photoID])
        }
    }

    @Test func aTextFileATruncatedJPEGAndOneByteOverTenMBAreRefusedLeavingNoRowAndNoFile() async throws {
        try await BabyContentFamily.with { home in
            let refusals: [([UInt8], String)] = [
                (Array("just some notes, saved as notes.png\n".utf8), "PHOTO_FORMAT_UNSUPPORTED"),
                (Array(PhotoFixtures.jpeg.dropLast(40)), "PHOTO_TRUNCATED"),
                (GalleryPhotos.jpeg(byteCount: PhotoLimits.maxByteCount + 1), "PHOTO_TOO_LARGE"),
            ]
            for (bytes, reason) in refusals {
                let refused = await home.refusedUpload(bytes)
                #expect(refused?.code == .invalidArgument && refused?.reason == reason)
                let rows = try await home.count("baby_photos")
                #expect(rows == 0 && home.storedFiles() == [])
            }
        }
    }

    @Test func exactlyTenMBIsAccepted() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(GalleryPhotos.jpeg(byteCount: PhotoLimits.maxByteCount))
            #expect(photo.mediaType == "image/jpeg" && photo.byteCount == Int64(PhotoLimits.maxByteCount))
        }
    }

    @Test func gpsTagsAreGoneFromTheStoredBytesAndTheOrientationStays() async throws {
        try await BabyContentFamily.with { home in
            let original = PhotoFixtures.jpegWithMetadata(orientation: 6)
            #expect(PhotoFixtures.index(of: PhotoFixtures.gpsLatitude, in: original) >= 0)
            let photo = try await home.upload(original)
            let stored = try await home.download(photo.photoID).bytes
            #expect(try await home.sealedPhotos.photo(of: home.key(photo.photoID)) == stored)
            #expect(PhotoFixtures.index(of: PhotoFixtures.gpsLatitude, in: stored) < 0)
            #expect(PhotoFixtures.index(of: PhotoFixtures.cameraMake, in: stored) < 0)
            #expect(PhotoFixtures.index(of: PhotoFixtures.comment, in: stored) < 0)
            #expect(try PhotoSanitizerTests.sanitize(stored).facts.orientation == 6)
        }
    }

    @Test func theThousandAndFirstPhotoIsRefusedAndLeavesNoFile() async throws {
        try await BabyContentFamily.with { home in
            try await home.insertPhotoRows(BabyGallery.maximumPhotos)
            let refused = await home.refusedUpload(PhotoFixtures.png)
            #expect(refused?.code == .resourceExhausted && refused?.reason == "GALLERY_FULL")
            #expect(try await home.count("baby_photos") == BabyGallery.maximumPhotos)
            #expect(home.storedFiles() == [])
        }
    }

    @Test func aDeletedPhotoFreesItsPlaceInAFullGallery() async throws {
        try await BabyContentFamily.with { home in
            try await home.insertPhotoRows(BabyGallery.maximumPhotos - 1)
            let last = try await home.upload(PhotoFixtures.png)
            #expect(await home.refusedUpload(PhotoFixtures.png)?.reason == "GALLERY_FULL")
            _ = try await home.family.deletePhoto(
                .init(profileID: home.profile.description, photoID: last.photoID), options: home.mum.bearer)
            let again = try await home.upload(PhotoFixtures.png)
            #expect(try await home.count("baby_photos") == BabyGallery.maximumPhotos)
            #expect(home.storedFiles().count == 1 && again.photoID != last.photoID)
            #expect(await home.refusedUpload(PhotoFixtures.png)?.reason == "GALLERY_FULL")
        }
    }

    @Test func ofUploadsRacingForTheLastPlaceExactlyOneLands() async throws {
        try await BabyContentFamily.with { home in
            try await home.insertPhotoRows(BabyGallery.maximumPhotos - 1)
            // Each upload's refusal reason; nil for the one that landed.
            let answers = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do {
                            _ = try await home.upload(PhotoFixtures.png)
                            return nil
                        } catch {
                            return (error as? RPCError)?.reason ?? "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(answers.filter { $0 == nil }.count == 1)
            #expect(answers.compactMap { $0 } == Array(repeating: "GALLERY_FULL", count: 5))
            #expect(try await home.count("baby_photos") == BabyGallery.maximumPhotos)
            #expect(home.storedFiles().count == 1)
        }
    }

    @Test func aRetryUnderTheSameRequestIDReturnsTheFirstPhoto() async throws {
        try await BabyContentFamily.with { home in
            let first = try await home.upload(PhotoFixtures.png, caption: "Nap", requestID: "r1")
            let again = try await home.upload(PhotoFixtures.png, caption: "Nap", requestID: "r1")
            #expect(again == first)
            let reused = await #expect(throws: RPCError.self) {
                _ = try await home.upload(PhotoFixtures.png, caption: "Bath", requestID: "r1")
            }
            #expect(reused?.reason == "REQUEST_ID_REUSED")
            let rows = try await home.count("baby_photos")
            #expect(rows == 1 && home.storedFiles() == [first.photoID])
        }
    }

    @Test func followersMayNotUploadAndAMessageOutOfOrderIsRefused() async throws {
        try await BabyContentFamily.with { home in
            let refused = await home.refusedUpload(PhotoFixtures.png, as: home.grandma)
            #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            let chunkFirst = await #expect(throws: RPCError.self) {
                _ = try await home.family.uploadPhoto(options: home.mum.bearer) { writer in
                    try await writer.write(.init(part: .chunk(PhotoFixtures.png)))
                }
            }
            #expect(chunkFirst?.code == .invalidArgument && chunkFirst?.reason == "PHOTO_UPLOAD_OUT_OF_ORDER")
            let rows = try await home.count("baby_photos")
            #expect(rows == 0 && home.storedFiles() == [])
        }
    }
}
