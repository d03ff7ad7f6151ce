import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A download that fails part way, over the wire: the client gets what was sent, then the failure as it is,
/// never its own DEADLINE_EXCEEDED (issue 29, item 8: a read error after the first chunk once reached the
/// caller as DEADLINE_EXCEEDED, the status queued behind a chunk larger than the window never arriving).
@Suite struct GalleryDownloadFailureTests {
    @Test func aSegmentThatDoesNotOpenAfterTheFirstChunkEndsTheDownloadWithItsOwnStatus() async throws {
        try await BabyContentFamily.with { home in
            let large = try await home.upload(
                GalleryPhotos.jpeg(byteCount: 2 * PhotoSegments.byteCount + 1_000))
            // One byte changed in the middle of the object: inside the second of its three sealed segments.
            var file = try home.storedObject(large.photoID)
            file[file.count / 2] ^= 0xFF
            try home.overwriteObject(large.photoID, with: file)

            var photoID: String?
            var chunks: [Int] = []
            let error = await #expect(throws: RPCError.self) {
                for try await response in home.family.downloadPhoto(
                    .init(profileID: home.profile.description, photoID: large.photoID),
                    options: home.mum.bearer)
                {
                    if let photo = response.photo {
                        photoID = photo.photoID
                    } else {
                        chunks.append(response.chunk.count)
                    }
                }
            }
            #expect(photoID == large.photoID, "the details came first")
            #expect(chunks == [BabyGallery.chunkSize], "then the first chunk, whole")
            #expect(error?.code == .internal, "the store's failure, not \(String(describing: error?.code))")
        }
    }
}
