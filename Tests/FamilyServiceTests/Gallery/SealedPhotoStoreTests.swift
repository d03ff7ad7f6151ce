@testable import FamilyService
import Foundation
import KindredAuth
import KindredTestSupport
import Testing

/// `SealedPhotoStore` over the filesystem: a photo of any size around the segment boundaries comes back whole
/// however it was written and read, and the file holds it sealed.
@Suite struct SealedPhotoStoreTests {
    let files = FilesystemPhotoStoreTests()
    var store: SealedPhotoStore { SealedPhotoStore(sealing: files.store, with: TestDataKeys.cipher) }

    /// Written in chunks and committed, or with its last 1,000 bytes (or fewer) handed to `seal(after:)`.
    @Test(
        arguments: [
            1, PhotoSegments.byteCount - 1, PhotoSegments.byteCount, PhotoSegments.byteCount + 10,
            2 * PhotoSegments.byteCount, 2 * PhotoSegments.byteCount + 1_000,
        ], [false, true])
    func aPhotoAroundTheSegmentBoundariesComesBackWhole(byteCount: Int, lastBytesWithTheSeal: Bool)
        async throws
    {
        defer { files.cleanUp() }
        let key = FilesystemPhotoStoreTests.key()
        let photo = (0..<byteCount).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let written = lastBytesWithTheSeal ? byteCount - min(1_000, byteCount) : byteCount
        let upload = try await store.beginUpload(key)
        for start in stride(from: 0, to: written, by: 300_000) {
            try await upload.write(Array(photo[start..<min(start + 300_000, written)]))
        }
        if lastBytesWithTheSeal { try await upload.seal(after: Array(photo[written...])) }
        try await upload.commit()
        let segments = (byteCount + PhotoSegments.byteCount - 1) / PhotoSegments.byteCount
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: files.store.path(of: key))))
        #expect(file.count == byteCount + segments * FieldCipher.sealedByteCount(of: 0, keyID: "test-2"))
        let reader = try #require(try await store.open(key, chunkSize: 400_000))
        #expect(reader.byteCount == byteCount)
        let read = try await FilesystemPhotoStoreTests.readAll(reader)
        #expect(read.bytes == photo && read.chunks.allSatisfy { $0 <= 400_000 })
    }
}
