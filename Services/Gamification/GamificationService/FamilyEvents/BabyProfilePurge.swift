import KindredMessages
import KindredPostgres
import Logging

/// `baby_profile.purged`: family's retention job removed a profile deleted 7 years before, so its games go
/// too: the game row, every vote, every name suggestion and its likes. A replayed event finds nothing left.
struct BabyProfilePurge: Sendable {
    let logger: Logger

    @Sendable func apply(_ event: Kindred_Family_V1_Event, in tx: PostgresTransaction) async throws {
        guard case .babyProfilePurged(let purged) = event.payload else { return }
        guard let profile = BabyProfileID(purged.profileID) else {
            // It would fail the same way every time and hold the consumer there.
            logger.error(
                "baby_profile.purged names no profile id; skipped",
                metadata: ["profile_id": "\(purged.profileID)"])
            return
        }
        try await BabyVoteStore.purge(profile, in: tx)
        try await BabyNameSuggestionStore.purge(profile, in: tx)
    }
}
