@testable import FamilyService
import Foundation
import KindredRPC
import Testing

/// An upload from its first chunk to a committed object, or to a refusal that leaves nothing behind.
@Suite struct PhotoIntakeTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-intake-\(UUID())").path
    var store: FilesystemPhotoStore { FilesystemPhotoStore(root: root) }
    let key = PhotoObjectKey(profile: BabyProfileID(UUID()), photo: PhotoID(UUID()))

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    /// The names left in the key's profile directory (none when an upload refused early never made it).
    func leftovers() throws -> [String] {
        let directory = "\(root)/\(key.profileName)"
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory)
    }

    func receive(_ photo: [UInt8], into intake: PhotoIntake, chunkSize: Int = 100) async throws(RPCError) {
        for start in stride(from: 0, to: photo.count, by: chunkSize) {
            try await intake.receive(Array(photo[start..<min(start + chunkSize, photo.count)]))
        }
    }

    @Test func aPhotoIsStoredStrippedAndVisibleOnlyOnceCommitted() async throws {
        defer { cleanUp() }
        let photo = PhotoFixtures.jpegWithMetadata()
        let intake = try await PhotoIntake.begin(key, in: store)
        try await receive(photo, into: intake)
        let stored = try await intake.finish()
        let expected = try PhotoSanitizerTests.sanitize(photo)
        #expect(stored == StoredPhoto(key: key, facts: expected.facts, byteCount: expected.stored.count))
        #expect(try await store.open(key, chunkSize: 4096) == nil)
        try await intake.commit()
        let reader = try #require(try await store.open(key, chunkSize: 4096))
        #expect(try await FilesystemPhotoStoreTests.readAll(reader).bytes == expected.stored)
    }

    @Test func aRefusalMidUploadLeavesNoTemporaryObject() async throws {
        defer { cleanUp() }
        let intake = try await PhotoIntake.begin(key, in: store)
        let error = await #expect(throws: RPCError.self) {
            try await receive(Array("not a photo at all".utf8), into: intake)
        }
        #expect(
            error?.details.first
                == .errorInfo(reason: "PHOTO_FORMAT_UNSUPPORTED", domain: "kindred.family", metadata: [:]))
        #expect(try leftovers().isEmpty)
    }

    @Test func aPhotoThatStopsShortIsRefusedAtTheEndAndLeavesNothing() async throws {
        defer { cleanUp() }
        let intake = try await PhotoIntake.begin(key, in: store)
        try await receive(Array(PhotoFixtures.png.dropLast(20)), into: intake)
        let error = await #expect(throws: RPCError.self) { try await intake.finish() }
        #expect(
            error?.details.first
                == .errorInfo(reason: "PHOTO_TRUNCATED", domain: "kindred.family", metadata: [:]))
        #expect(try leftovers().isEmpty)
    }

    @Test func anUploadPastTheByteLimitIsRefusedAndLeavesNothing() async throws {
        defer { cleanUp() }
        let intake = try await PhotoIntake.begin(key, in: store, maxByteCount: 1_000)
        let error = await #expect(throws: RPCError.self) {
            try await receive(PhotoFixtures.png + PhotoFixtures.png, into: intake, chunkSize: 700)
        }
        #expect(
            error?.details.first
                == .errorInfo(reason: "PHOTO_TOO_LARGE", domain: "kindred.family", metadata: [:]))
        #expect(try leftovers().isEmpty)
    }
}
