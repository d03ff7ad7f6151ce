import KindredAPI
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// A revealed game's birth date and name at rest (`BabyGameSeals`): sealed when revealed, shown whole in the
/// results, and games revealed before sealing sealed by `keys rotate-data` (`BabyGameRotation`).
@Suite struct BabyGameSealingTests {
    @Test func theRevealedNameAndBirthDateAreSealedAndOldGamesAreSealedByTheRotation() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let aunt = try await stack.register("aunt")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [aunt])
            try await stack.withFamilyEvents {
                try await stack.announceArrival(
                    of: profile, born: day(2027, 3, 10), name: "Xanthippe", gender: 1)
                try await stack.awaitReveal(of: profile)
            }
            let game = try await Self.gameRow(stack)
            #expect(!game.contains("Xanthippe") && !game.contains("2027-03-10"))
            var seen = try await stack.results(of: profile, options: aunt.bearer)
            #expect(seen.arrival?.name == "Xanthippe" && seen.arrival?.birthDate == day(2027, 3, 10))

            try await stack.pool.query(
                """
                UPDATE gamification.baby_games
                SET birth_date = '2027-03-11', baby_name = 'Before', arrival_sealed = NULL
                WHERE profile_id = \(profile)::uuid
                """)
            seen = try await stack.results(of: profile, options: aunt.bearer)
            #expect(seen.arrival?.name == "Before" && seen.arrival?.birthDate == day(2027, 3, 11))
            let rotation = BabyGameRotation(
                database: stack.pool, seals: BabyGameSeals(cipher: TestDataKeys.cipher))
            #expect(try await rotation.resealAll() == 1)
            #expect(try await rotation.resealAll() == 0)
            #expect(!(try await Self.gameRow(stack)).contains("Before"))
            seen = try await stack.results(of: profile, options: aunt.bearer)
            #expect(seen.arrival?.name == "Before" && seen.arrival?.birthDate == day(2027, 3, 11))
        }
    }

    /// Every column of the games' rows as text (a bytea as hex), as a stolen dump would show them.
    static func gameRow(_ stack: GamificationTestStack) async throws -> String {
        try await stack.pool.query(
            "SELECT coalesce(string_agg(g::text, ' '), '') FROM gamification.baby_games g")[0]
            .decode(String.self)
    }
}
