import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Synchronization
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// An upload's bytes are made durable before its row's transaction begins: a slow disk holds its own upload,
/// never a database connection or the profile's lock on uploads, and a row never commits before its bytes are
/// durable.
@Suite struct GallerySealTests {
    @Test func whileASealIsHeldNoTransactionIsOpenAndOtherUploadsLand() async throws {
        let gate = SealGate()
        let holding = SealInterceptingPhotoStore.making { _ in await gate.pass() }
        try await BabyContentFamily.with(photos: holding) { home in
            let activity = try await home.count("baby_activity")
            // Its deadline outlasts what the test does while the seal is held, however loaded the machine.
            let held = Task { try await home.upload(PhotoFixtures.png, deadline: .seconds(120)) }
            await gate.waitUntilHeld()
            try await consistently("no upload's transaction is open while the disk works") {
                try await home.uploadLocksHeld() == 0
            }
            #expect(try await home.count("baby_photos") == 0)
            #expect(try await home.count("baby_activity") == activity)
            // Another upload to the profile goes by: it waits on nothing the held one has.
            let other = try await home.upload(PhotoFixtures.png)
            gate.release()
            let photo = try await held.value
            #expect(try await home.count("baby_photos") == 2)
            #expect(home.storedFiles() == [other.photoID, photo.photoID].sorted())
            #expect(try await home.download(photo.photoID).photo == photo)
        }
    }

    @Test func aRetryThatLandsWhileTheFirstUploadIsSealingIsTheAnswerToBoth() async throws {
        let gate = SealGate()
        let holding = SealInterceptingPhotoStore.making { _ in await gate.pass() }
        try await BabyContentFamily.with(photos: holding) { home in
            func upload() async throws -> Kindred_Family_V1_BabyPhoto {
                try await home.upload(
                    PhotoFixtures.png, caption: "Nap", requestID: "r1", deadline: .seconds(120))
            }
            let first = Task { try await upload() }
            await gate.waitUntilHeld()
            // The retry finds no photo yet and reads the bytes again; its row commits while the first's seal waits.
            let retry = try await upload()
            gate.release()
            // The first's insert then fails on the request's unique key, and it answers the retry's photo.
            #expect(try await first.value == retry)
            #expect(try await home.count("baby_photos") == 1)
            #expect(home.storedFiles() == [retry.photoID])
        }
    }

    /// The row's insert goes with the lock statement, before the author is looked at: what changed while the
    /// bytes sealed is still refused as it was, and the insert goes with the rollback.
    @Test func anOwnerDemotedOrAProfileDeletedWhileThePhotoSealsIsRefusedAndLeavesNothing() async throws {
        for change in [ChangeWhileSealing.demoteTheOwner, .deleteTheProfile] {
            let gate = SealGate()
            let holding = SealInterceptingPhotoStore.making { _ in await gate.pass() }
            try await BabyContentFamily.with(photos: holding) { home in
                let held = Task { try await home.upload(PhotoFixtures.png, deadline: .seconds(120)) }
                await gate.waitUntilHeld()
                try await home.stack.pool.query(change.statement(home))
                gate.release()
                let refused = await #expect(throws: RPCError.self) { _ = try await held.value }
                #expect(refused?.reason == change.reason, "\(change)")
                #expect(try await home.count("baby_photos") == 0, "\(change)")
                #expect(home.storedFiles() == [], "\(change)")
            }
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
            #expect(
                try await home.uploadLocksHeld() == 0, "the seal failed before the row's transaction began")
            #expect(home.storedFiles() == [])
            let photo = try await home.upload(PhotoFixtures.png)
            #expect(home.storedFiles() == [photo.photoID])
        }
    }
}

/// What changes on the profile while an upload's seal is held, and the refusal the upload then gets.
private enum ChangeWhileSealing {
    case demoteTheOwner, deleteTheProfile

    func statement(_ home: BabyContentFamily) -> PostgresQuery {
        switch self {
        case .demoteTheOwner:
            "UPDATE family.baby_members SET role = 2 WHERE profile_id = \(home.profile)::uuid AND user_id = \(home.mum.id)::uuid"
        case .deleteTheProfile:
            "DELETE FROM family.baby_profiles WHERE profile_id = \(home.profile)::uuid"
        }
    }

    var reason: String {
        switch self {
        case .demoteTheOwner: "BABY_PROFILE_OWNERS_ONLY"
        case .deleteTheProfile: "BABY_PROFILE_NOT_FOUND"
        }
    }
}

/// Holds the first seal that reaches it until `release`; the seals after it pass.
private final class SealGate: Sendable {
    private let reached = AsyncStream.makeStream(of: Void.self)
    private let released = AsyncStream.makeStream(of: Void.self)
    private let isFirst = Mutex(true)

    func pass() async {
        let isFirst = isFirst.withLock { first in
            defer { first = false }
            return first
        }
        guard isFirst else { return }
        reached.continuation.yield()
        for await _ in released.stream { break }
    }

    func waitUntilHeld() async {
        for await _ in reached.stream { break }
    }

    func release() { released.continuation.finish() }
}

extension BabyContentFamily {
    /// Whether an upload's transaction holds the profile's lock on uploads (`BabyPhotoStore`'s
    /// `pg_advisory_xact_lock` key, which pg_locks splits into its high and low 32 bits). Only that lock: the
    /// event outbox's sequencer takes advisory locks of its own in the background.
    fileprivate func uploadLocksHeld() async throws -> Int {
        try await stack.pool.query(
            """
            SELECT count(*)
            FROM pg_locks l, (SELECT hashtextextended('family.baby_photos ' || \(profile.description), 0) AS key) k
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                AND l.classid::bigint = (k.key >> 32) & 4294967295 AND l.objid::bigint = k.key & 4294967295
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """
        )[0].decode(Int.self)
    }
}
