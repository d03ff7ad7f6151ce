@testable import FamilyService
import Foundation
import Testing

/// `replace`, as `keys rotate-data` re-seals an object with it: the new bytes in one rename, nothing for a
/// missing object, and a delete that takes a half-written replacement with it.
@Suite struct PhotoReplacementTests {
    let files = FilesystemPhotoStoreTests()

    @Test func anObjectIsReplacedWholeAndAMissingOneIsNotCreated() async throws {
        defer { files.cleanUp() }
        let key = FilesystemPhotoStoreTests.key()
        try await files.upload(PhotoFixtures.png, to: key)
        #expect(try await files.store.replace(key, with: [1, 2, 3]))
        let reader = try #require(try await files.store.open(key, chunkSize: 2))
        #expect(try await FilesystemPhotoStoreTests.readAll(reader).bytes == [1, 2, 3])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: files.store.directory(of: key)) == [
                key.photoName
            ])

        let missing = FilesystemPhotoStoreTests.key()
        #expect(try await !files.store.replace(missing, with: [1, 2, 3]))
        #expect(try await files.store.open(missing, chunkSize: 2) == nil)
    }

    @Test func aDeleteRemovesWhatACrashedReplacementLeft() async throws {
        defer { files.cleanUp() }
        let key = FilesystemPhotoStoreTests.key()
        try await files.upload(PhotoFixtures.png, to: key)
        try Data([1, 2]).write(to: URL(fileURLWithPath: files.store.replacementPath(of: key)))
        try await files.store.delete(key)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.store.directory(of: key)) == [])
    }
}
