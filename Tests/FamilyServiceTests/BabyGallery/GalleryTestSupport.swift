import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Uploading, downloading and looking at what the gallery left on disk, for the gallery's tests.
extension BabyContentFamily {
    /// Uploads `bytes` to the profile as `user`, in chunks of `chunkSize`, within `deadline` (the tests' 10 s
    /// unless a test holds the upload part way).
    func upload(
        _ bytes: [UInt8], as user: TestUser? = nil, caption: String = "", fileName: String = "",
        requestID: String = UUID().uuidString, chunkSize: Int = BabyGallery.chunkSize,
        deadline: Duration? = nil
    ) async throws -> Kindred_Family_V1_BabyPhoto {
        let metadata = Kindred_Family_V1_UploadPhotoMetadata(
            requestID: requestID, profileID: profile.description, caption: caption, fileName: fileName)
        var options = (user ?? mum).bearer
        if let deadline { options.timeout = deadline }
        return try await family.uploadPhoto(options: options) { writer in
            try await writer.write(.init(part: .metadata(metadata)))
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try await writer.write(
                    .init(part: .chunk(Array(bytes[start..<min(start + chunkSize, bytes.count)]))))
            }
        }.photo!
    }

    /// The refusal an upload of `bytes` gets.
    func refusedUpload(_ bytes: [UInt8], as user: TestUser? = nil) async -> RPCError? {
        await #expect(throws: RPCError.self) { _ = try await upload(bytes, as: user) }
    }

    /// The photo's details and bytes as DownloadPhoto streams them to `user`.
    func download(_ photo: String, as user: TestUser? = nil) async throws -> (
        photo: Kindred_Family_V1_BabyPhoto?, bytes: [UInt8]
    ) {
        var first: Kindred_Family_V1_BabyPhoto?
        var bytes: [UInt8] = []
        for try await response in family.downloadPhoto(
            .init(profileID: profile.description, photoID: photo), options: (user ?? mum).bearer)
        {
            if let photo = response.photo { first = photo }
            #expect(response.chunk.count <= BabyGallery.chunkSize)
            bytes += response.chunk
        }
        return (first, bytes)
    }

    /// The names in the profile's directory of the photo store: committed and temporary objects.
    func storedFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "\(stack.photoRoot)/\(profile)"))?.sorted()
            ?? []
    }

    /// The bytes of a photo's object as they are on disk.
    func storedObject(_ photo: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(stack.photoRoot)/\(profile)/\(photo)")))
    }

    /// Replaces a photo's object on disk with `bytes`, as an older version of the service, or an older key,
    /// had stored it.
    func overwriteObject(_ photo: String, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(stack.photoRoot)/\(profile)/\(photo)"))
    }

    /// The key of one of the profile's photos.
    func key(_ photo: String) -> PhotoObjectKey {
        PhotoObjectKey(profile: profile, photo: PhotoID(photo)!)
    }

    /// The gallery's store as the service has it: the test stack's, sealed under the tests' data keys.
    var sealedPhotos: SealedPhotoStore {
        SealedPhotoStore(sealing: stack.context.photos, with: stack.context.cipher)
    }

    /// `count` photo rows on the profile, inserted by SQL (no bytes), as if uploaded by mum.
    func insertPhotoRows(_ count: Int) async throws {
        try await stack.pool.query(
            """
            INSERT INTO family.baby_photos
                (profile_id, photo_id, uploaded_by, media_type, width, height, byte_count, request_id, created_at)
            SELECT \(profile)::uuid, gen_random_uuid(), \(mum.id)::uuid, 'image/png', 1, 1, 1, 'sql-' || n, now()
            FROM generate_series(1, \(count)) AS n
            """)
    }
}

/// Photos the gallery tests upload, built around the sanitizer's fixtures.
enum GalleryPhotos {
    /// A JPEG of exactly `byteCount` bytes: the fixture with zeros added to its scan data.
    static func jpeg(byteCount: Int) -> [UInt8] {
        let photo = PhotoFixtures.jpeg
        return Array(photo.dropLast(2)) + Array(repeating: 0, count: byteCount - photo.count) + [0xFF, 0xD9]
    }
}
