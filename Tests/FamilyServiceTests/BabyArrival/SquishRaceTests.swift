import Foundation
import KindredPostgres
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A squish takes its target's lock in the statement that changes it (`SquishStore.set`), so a statement may
/// begin before a racing squish commits and get the lock only after: what it changes must still be what the
/// first one committed.
@Suite struct SquishRaceTests {
    /// Grandma's squish is held uncommitted, the photo's row locked, while her take-back starts and waits for
    /// that lock; then the squish commits. The take-back's snapshot predates the squish, yet it takes it back.
    @Test func aTakeBackThatWaitedForTheSquishItFollowsTakesItBack() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            let squish = Task {
                try await home.stack.pool.transaction { tx in
                    try await tx.query(
                        """
                        WITH squished AS (
                            INSERT INTO family.photo_squishes (profile_id, photo_id, user_id, squished_at)
                            VALUES (\(home.profile)::uuid, \(photo)::uuid, \(home.grandma.id)::uuid, now()))
                        UPDATE family.baby_photos SET squish_count = squish_count + 1
                        WHERE profile_id = \(home.profile)::uuid AND photo_id = \(photo)::uuid
                        """)
                    lockedSignal.yield()
                    try await eventually("the take-back waits for the photo's lock") {
                        try await tx.query("SELECT pg_stat_clear_snapshot()")
                        return try await tx.query(
                            """
                            SELECT count(*) FROM pg_stat_activity
                            WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))
                            """)[0].decode(Int64.self, column: 0) >= 1
                    }
                }
            }
            for await _ in locked { break }
            let takenBack = try await home.family.unsquishPhoto(
                .init(profileID: home.profile.description, photoID: photo), options: home.grandma.bearer)
            try await squish.value
            #expect(takenBack.squishCount == 0 && !takenBack.squishedByMe)
            #expect(try await home.storedSquishes(of: photo) == 0)
            #expect(try await home.count("photo_squishes") == 0)
        }
    }
}
