import Foundation
import KindredMessages
import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// What a crash at each step of an upload or a delete leaves, and what the orphan sweep makes of it.
@Suite struct GalleryCrashTests {
    /// Bytes written and sealed under a key of the profile, as an upload had when it crashed before its row.
    func sealedUpload(_ home: BabyContentFamily) async throws -> StoredPhoto {
        let key = PhotoObjectKey(profile: home.profile, photo: .generate(at: home.stack.clock.now))
        let intake = try await PhotoIntake.begin(key, in: home.stack.context.photos)
        try await intake.receive(PhotoFixtures.png)
        return try await intake.finish()
    }

    @Test func aCrashBetweenTheFileWriteAndTheCommitLeavesNothingVisibleAndTheSweepRemovesTheOrphan()
        async throws
    {
        try await BabyContentFamily.with { home in
            let orphan = try await sealedUpload(home)
            #expect(home.storedFiles() == ["\(orphan.key.photoName).partial"])
            let listed = try await home.family.listPhotos(
                .init(profileID: home.profile.description), options: home.mum.bearer)
            #expect(listed.photos.isEmpty)
            let hidden = await #expect(throws: RPCError.self) {
                _ = try await home.download(orphan.key.photoName)
            }
            #expect(hidden?.reason == "PHOTO_NOT_FOUND")
            let sweep = PhotoOrphanSweep(context: home.stack.context)
            // Within the grace period it may still be an upload in flight: left alone.
            #expect(try await sweep.sweep() == PhotoSweep())
            #expect(home.storedFiles().count == 1)
            #expect(try await sweep.sweep(olderThan: .zero) == PhotoSweep(removedTemporaries: 1))
            #expect(home.storedFiles() == [])
        }
    }

    /// The row of a sealed upload, committed as its upload's insert does before it publishes the bytes.
    func commitRow(of sealed: StoredPhoto, _ home: BabyContentFamily) async throws {
        try await home.stack.pool.query(
            """
            INSERT INTO family.baby_photos
                (profile_id, photo_id, uploaded_by, media_type, width, height, byte_count, request_id, created_at)
            VALUES (\(home.profile)::uuid, \(sealed.key.photo)::uuid, \(home.mum.id)::uuid, 'image/png',
                \(sealed.facts.width), \(sealed.facts.height), \(sealed.byteCount), 'crashed', now())
            """)
    }

    @Test func aCrashAfterTheRowCommittedIsFinishedByTheSweep() async throws {
        try await BabyContentFamily.with { home in
            let sealed = try await sealedUpload(home)
            try await commitRow(of: sealed, home)
            let sweep = PhotoOrphanSweep(context: home.stack.context)
            #expect(try await sweep.sweep() == PhotoSweep(committedTemporaries: 1))
            #expect(home.storedFiles() == [sealed.key.photoName])
            let downloaded = try await home.download(sealed.key.photoName, as: home.grandma)
            #expect(downloaded.bytes == (try PhotoSanitizerTests.sanitize(PhotoFixtures.png).stored))
        }
    }

    /// The rolling-restart fault test once saw this on three replicas: ListPhotos on one listed a photo whose upload,
    /// on another, had committed its row and not yet published the bytes, and DownloadPhoto on a third found none.
    @Test func aDownloadBetweenTheRowAndThePublishGetsTheBytesAndPublishesThem() async throws {
        try await BabyContentFamily.with { home in
            let sealed = try await sealedUpload(home)
            try await commitRow(of: sealed, home)
            let downloaded = try await home.download(sealed.key.photoName, as: home.grandma)
            #expect(downloaded.bytes == (try PhotoSanitizerTests.sanitize(PhotoFixtures.png).stored))
            #expect(home.storedFiles() == [sealed.key.photoName])
        }
    }

    @Test func bytesADeleteLeftBehindAreRemovedByTheSweep() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(PhotoFixtures.png)
            // The row's delete committed and the process died before the bytes went.
            try await home.stack.pool.query(
                "DELETE FROM family.baby_photos WHERE profile_id = \(home.profile)::uuid")
            #expect(home.storedFiles() == [photo.photoID])
            let sweep = PhotoOrphanSweep(context: home.stack.context)
            #expect(try await sweep.sweep() == PhotoSweep(removedObjects: 1))
            #expect(home.storedFiles() == [])
        }
    }
}
