import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Synchronization
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// An upload's bytes are made durable while its row's first statements run, and the row commits only once they
/// are: an fsync and two round trips at once, and still never a row whose bytes a crash could take.
@Suite struct GallerySealTests {
    @Test func theRowIsWrittenWhileTheBytesAreSealedAndCommitsOnlyAfter() async throws {
        let gate = SealGate()
        let holding = SealInterceptingPhotoStore.making { _ in await gate.pass() }
        try await BabyContentFamily.with(photos: holding) { home in
            let activity = try await home.count("baby_activity")
            // Its deadline outlasts what the test does while the seal is held, however loaded the machine.
            let upload = Task { try await home.upload(PhotoFixtures.png, deadline: .seconds(120)) }
            await gate.waitUntilHeld()
            // The row's transaction has begun beside the held seal: it holds the lock on the profile's uploads.
            try await eventually("the upload's transaction holds its lock") {
                try await home.advisoryLocksHeld() == 1
            }
            #expect(
                try await home.count("baby_photos") == 0, "nothing committed while the bytes are not durable")
            #expect(try await home.count("baby_activity") == activity)
            gate.release()
            let photo = try await upload.value
            #expect(try await home.count("baby_photos") == 1)
            #expect(home.storedFiles() == [photo.photoID])
            #expect(try await home.download(photo.photoID).photo == photo)
        }
    }

    @Test func aRetryRacingTheFirstUploadAnswersItsPhotoAndLeavesOneRowAndOneFile() async throws {
        let gate = SealGate()
        let holding = SealInterceptingPhotoStore.making { _ in await gate.pass() }
        try await BabyContentFamily.with(photos: holding) { home in
            func upload() -> Task<Kindred_Family_V1_BabyPhoto, any Error> {
                Task {
                    try await home.upload(
                        PhotoFixtures.png, caption: "Nap", requestID: "r1", deadline: .seconds(120))
                }
            }
            let first = upload()
            await gate.waitUntilHeld()
            try await eventually("the first upload's transaction holds its lock") {
                try await home.advisoryLocksHeld() == 1
            }
            // The retry finds no photo yet (the first has not committed), reads the bytes again, and its
            // transaction waits for the lock.
            let retry = upload()
            try await eventually("the retry waits for the lock") {
                try await home.advisoryLocksHeld(granted: false) == 1
            }
            gate.release()
            let (photo, again) = (try await first.value, try await retry.value)
            #expect(again == photo)
            #expect(try await home.count("baby_photos") == 1)
            #expect(home.storedFiles() == [photo.photoID])
        }
    }

    @Test func aSealThatFailsLeavesNoRowAndNoFileAndTheNextUploadLands() async throws {
        let failures = Mutex(1)
        let failingOnce = SealInterceptingPhotoStore.making { key throws(PhotoStoreError) in
            let fails = failures.withLock { count in
                count -= 1
                return count >= 0
            }
            if fails { throw PhotoStoreError(operation: "fsync", path: key.description, code: 5) }  // EIO
        }
        try await BabyContentFamily.with(photos: failingOnce) { home in
            let activity = try await home.count("baby_activity")
            let failed = await home.refusedUpload(PhotoFixtures.png)
            #expect(failed?.code == .internal)
            #expect(failed?.message.contains("fsync") == false, "the disk's detail stays in the log")
            #expect(try await home.count("baby_photos") == 0)
            #expect(try await home.count("baby_activity") == activity)
            // The ROLLBACK is sent without waiting for its answer: the lock goes with it, soon after the refusal.
            try await eventually("the failed upload's lock is released") {
                try await home.advisoryLocksHeld() == 0
            }
            #expect(home.storedFiles() == [])
            let photo = try await home.upload(PhotoFixtures.png)
            #expect(home.storedFiles() == [photo.photoID])
        }
    }
}

/// Holds the first seal that reaches it until `release`; the seals after it pass.
private final class SealGate: Sendable {
    private let reached = AsyncStream.makeStream(of: Void.self)
    private let released = AsyncStream.makeStream(of: Void.self)
    private let isFirst = Mutex(true)

    func pass() async {
        guard
            isFirst.withLock({ first in
                defer { first = false }; return first
            })
        else { return }
        reached.continuation.yield()
        for await _ in released.stream { break }
    }

    func waitUntilHeld() async {
        for await _ in reached.stream { break }
    }

    func release() { released.continuation.finish() }
}

extension BabyContentFamily {
    /// Advisory locks held (or, not `granted`, waited for) in this test's database: the gallery's lock on a
    /// profile's uploads.
    fileprivate func advisoryLocksHeld(granted: Bool = true) async throws -> Int {
        try await stack.pool.query(
            """
            SELECT count(*) FROM pg_locks
            WHERE locktype = 'advisory' AND granted = \(granted)
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """
        )[0].decode(Int.self)
    }
}
