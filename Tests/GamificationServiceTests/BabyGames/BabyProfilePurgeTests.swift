import KindredAPI
import KindredEvents
import KindredMessages
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Family's `baby_profile.purged` (its retention job, 7 years after a profile's deletion) purges the profile's
/// games here: its game row, votes, name suggestions and their likes; another profile's stay.
@Suite struct BabyProfilePurgeTests {
    @Test func aPurgedProfilesGamesAreGoneAndAnotherProfilesStay() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let purged = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let kept = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            for profile in [purged, kept] {
                try await stack.vote(.gender(.girl), on: profile, as: grandma)
                let name = try await stack.suggest("Alba", .girl, on: profile, as: grandma)
                _ = try await stack.gamification.likeBabyNameSuggestion(
                    .init(profileID: profile, suggestionID: name.suggestionID), options: mum.bearer)
            }
            #expect(try await stack.gameRows(of: purged) == 4)

            try await stack.withFamilyEvents {
                try await stack.announcePurge(of: purged)
                try await eventually("the games of the purged profile gone") {
                    try await stack.gameRows(of: purged) == 0
                }
            }
            #expect(try await stack.gameRows(of: kept) == 4)
            let listed = try await stack.gamification.listBabyNameSuggestions(
                .init(profileID: kept), options: mum.bearer)
            #expect(listed.suggestions.map(\.likes) == [1])

            // Delivery is at least once: the event again finds nothing left and leaves the other profile alone.
            let again = Kindred_Family_V1_Event(payload: .babyProfilePurged(.init(profileID: purged)))
            try await stack.pool.transaction { tx in
                try await BabyProfilePurge(logger: FamilyTestDatabase.logger).apply(again, in: tx)
            }
            #expect(try await stack.gameRows(of: purged) == 0)
            #expect(try await stack.gameRows(of: kept) == 4)
        }
    }
}

extension GamificationTestStack {
    /// Appends family's `baby_profile.purged` for `profile` to family's outbox, as its retention job does.
    func announcePurge(of profile: String) async throws {
        let event = Kindred_Family_V1_Event(payload: .babyProfilePurged(.init(profileID: profile)))
        try await pool.transaction { tx in
            try await EventOutbox(schema: "family").append(
                type: "baby_profile.purged", payload: try event.serializedBytes(),
                sealedWith: TestDataKeys.cipher, in: tx)
        }
    }

    /// The rows the games keep of `profile`: its game, votes, name suggestions and likes.
    func gameRows(of profile: String) async throws -> Int {
        try await pool.query(
            """
            SELECT (SELECT count(*) FROM gamification.baby_games WHERE profile_id = \(profile)::uuid)
                + (SELECT count(*) FROM gamification.baby_votes WHERE profile_id = \(profile)::uuid)
                + (SELECT count(*) FROM gamification.baby_name_suggestions WHERE profile_id = \(profile)::uuid)
                + (SELECT count(*) FROM gamification.baby_name_likes WHERE profile_id = \(profile)::uuid)
            """)[0].decode(Int.self, column: 0)
    }
}
