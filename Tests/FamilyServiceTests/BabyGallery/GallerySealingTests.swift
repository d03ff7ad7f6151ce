import Foundation
import KindredAuth
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Gallery photos' bytes are sealed in the object store, segment by segment, bound to their object; objects
/// stored before sealing, or under an older key, stay readable until `keys rotate-data` seals them.
@Suite struct GallerySealingTests {
    @Test func theFilesOnDiskHoldNeitherAPhotoSignatureNorThePhotosBytes() async throws {
        try await BabyContentFamily.with { home in
            let photos = [
                try await home.upload(PhotoFixtures.jpegWithMetadata(orientation: 6)),
                try await home.upload(PhotoFixtures.png),
            ]
            #expect(home.storedFiles() == photos.map(\.photoID).sorted())
            for photo in photos {
                let stored = try await home.download(photo.photoID).bytes
                let file = try home.storedObject(photo.photoID)
                #expect(FieldCipher.keyID(of: file) == "test-2" && !file.starts(with: [0xFF, 0xD8]))
                #expect(PhotoFixtures.index(of: Self.pngSignature, in: file) < 0)
                for start in stride(from: 0, to: stored.count - 16, by: 16) {
                    #expect(PhotoFixtures.index(of: Array(stored[start..<start + 16]), in: file) < 0)
                }
            }
        }
    }

    @Test func aPhotoOfManySegmentsComesBackWholeAndACutOrMovedObjectDoesNotOpen() async throws {
        try await BabyContentFamily.with { home in
            let large = try await home.upload(
                GalleryPhotos.jpeg(byteCount: 2 * PhotoSegments.byteCount + 1_000))
            let small = try await home.upload(PhotoFixtures.png)
            let bytes = try #require(try await Self.read(large.photoID, of: home))
            #expect(bytes.count == Int(large.byteCount))
            let file = try home.storedObject(large.photoID)
            #expect(file.count == bytes.count + 3 * FieldCipher.sealedByteCount(of: 0, keyID: "test-2"))

            // Without its last segment: the segment before it does not open as the last.
            try home.overwriteObject(large.photoID, with: Array(file.dropLast(1_000 + 28 + 8)))
            await #expect(throws: PhotoStoreError.self) {
                _ = try await home.sealedPhotos.photo(of: home.key(large.photoID))
            }
            try home.overwriteObject(small.photoID, with: file)
            let moved = await #expect(throws: RPCError.self) { _ = try await home.download(small.photoID) }
            #expect(moved?.code == .internal)
        }
    }

    @Test func photosStoredPlainOrUnderTheOldKeyStayReadableAndTheRotationSealsThem() async throws {
        try await BabyContentFamily.with { home in
            let plain = try await home.upload(PhotoFixtures.png)
            let old = try await home.upload(
                GalleryPhotos.jpeg(byteCount: 2 * PhotoSegments.byteCount + 1_000))
            let current = try await home.upload(PhotoFixtures.jpegWithMetadata(orientation: 3))
            let photos = [plain, old, current]
            var bytes: [String: [UInt8]] = [:]
            for photo in photos { bytes[photo.photoID] = try await Self.read(photo.photoID, of: home) }
            try home.overwriteObject(plain.photoID, with: bytes[plain.photoID]!)
            try home.overwriteObject(
                old.photoID,
                with: PhotoSegments.sealed(
                    bytes[old.photoID]!, for: home.key(old.photoID), with: TestDataKeys.old))
            for photo in photos {
                #expect(try await Self.read(photo.photoID, of: home) == bytes[photo.photoID])
            }

            let rotation = PhotoObjectRotation(database: home.stack.pool, photos: home.sealedPhotos)
            #expect(try await rotation.resealAll() == 2)
            for photo in photos {
                #expect(FieldCipher.keyID(of: try home.storedObject(photo.photoID)) == "test-2")
                #expect(try await Self.read(photo.photoID, of: home) == bytes[photo.photoID])
            }
            #expect(try await rotation.resealAll() == 0)
            #expect(home.storedFiles() == photos.map(\.photoID).sorted())
        }
    }

    @Test func aRotationFromTheOldKeyWhileMembersUploadDownloadAndDelete() async throws {
        try await BabyContentFamily.with { home in
            var photos: [String: [UInt8]] = [:]
            for orientation in 1...8 {
                let photo = try await home.upload(PhotoFixtures.jpegWithMetadata(orientation: orientation))
                let bytes = try await home.download(photo.photoID).bytes
                photos[photo.photoID] = bytes
                try home.overwriteObject(
                    photo.photoID,
                    with: PhotoSegments.sealed(bytes, for: home.key(photo.photoID), with: TestDataKeys.old))
            }
            let deleted = photos.keys.min()!
            let rotation = PhotoObjectRotation(database: home.stack.pool, photos: home.sealedPhotos)
            let added = try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    let resealed = try await rotation.resealAll()
                    #expect((7...8).contains(resealed))
                    return nil
                }
                for (id, bytes) in photos where id != deleted {
                    group.addTask {
                        let downloaded = try await home.download(id, as: home.grandma).bytes
                        #expect(downloaded == bytes)
                        return nil
                    }
                }
                group.addTask {
                    _ = try await home.family.deletePhoto(
                        .init(profileID: home.profile.description, photoID: deleted), options: home.mum.bearer
                    )
                    return nil
                }
                group.addTask { try await home.upload(PhotoFixtures.png).photoID }
                var added: [String] = []
                for try await id in group { if let id { added.append(id) } }
                return added
            }
            let kept = Set(photos.keys).subtracting([deleted]).union(added)
            #expect(home.storedFiles() == kept.sorted())
            for id in kept {
                #expect(FieldCipher.keyID(of: try home.storedObject(id)) == "test-2")
            }
            for (id, bytes) in photos where id != deleted {
                #expect(try await home.download(id).bytes == bytes)
            }
        }
    }

    /// A photo's bytes over the wire (DownloadPhoto, as grandma), in as many chunks as it takes; nil when the
    /// store has none. Regression: a download of more than one chunk hung until its deadline (the client
    /// acknowledged no part of a message it waited for).
    static func read(_ photo: String, of home: BabyContentFamily) async throws -> [UInt8]? {
        guard try await home.sealedPhotos.photo(of: home.key(photo)) != nil else { return nil }
        return try await home.download(photo, as: home.grandma).bytes
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
