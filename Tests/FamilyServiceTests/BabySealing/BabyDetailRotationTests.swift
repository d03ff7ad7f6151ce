@testable import FamilyService
import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Baby details written before sealing began, or sealed under an older key: read as they are, and sealed under
/// the current key by `kindred-family keys rotate-data` (`BabySealRotation`), while owners keep editing.
@Suite struct BabyDetailRotationTests {
    @Test func rowsFromBeforeSealingReadAsTheyAreUntilTheRotationSealsThem() async throws {
        try await BabySealingFamily.with { home in
            try await home.announce()
            try await home.stack.pool.query(
                """
                UPDATE family.baby_profiles SET name = 'Rosalind', name_sealed = NULL,
                    expected_birth_date = \(BabySealingFamily.dueText)::date, expected_birth_date_sealed = NULL
                WHERE profile_id = \(home.profile)::uuid
                """)
            try await home.stack.pool.query(
                """
                UPDATE family.baby_arrivals SET birth_date = \(BabySealingFamily.bornText)::date, birth_time = '14:05',
                    weight_grams = 3457, length_mm = 512, birth_sealed = NULL,
                    message = 'Mother and baby are doing well.', message_sealed = NULL
                WHERE profile_id = \(home.profile)::uuid
                """)
            #expect(try await home.sealing().plaintext == 4)
            try await Self.expectReadsRight(home)

            let rotations = BabySealRotation.all(database: home.stack.pool, cipher: TestDataKeys.cipher)
            var resealed: [Int] = []
            for rotation in rotations { resealed.append(try await rotation.resealAll()) }
            #expect(resealed == [1, 1, 1, 1])
            let sealing = try await home.sealing()
            #expect(sealing.keys == ["test-2", "test-2", "test-2", "test-2"] && sealing.plaintext == 0)
            try await Self.expectReadsRight(home)
            for rotation in rotations { #expect(try await rotation.resealAll() == 0) }
        }
    }

    @Test func rotatingFromTheOldKeyWhileOwnersRenameLosesNoRename() async throws {
        try await BabySealingFamily.with { home in
            var profiles = [home.profile]
            for index in 1..<8 {
                let created = try await home.family.createBabyProfile(
                    .init(
                        requestID: "baby-\(index)", name: "Baby \(index)",
                        expectedBirthDate: BabySealingFamily.due),
                    options: home.mum.bearer)
                let id = created.profile.flatMap { BabyProfileID($0.profileID) }
                profiles.append(try #require(id))
            }
            let seals = BabySeals(cipher: TestDataKeys.old)
            for (index, profile) in profiles.enumerated() {
                let name = seals.seal(index == 0 ? "Clementine" : "Baby \(index)", .name, of: profile)
                let date = seals.seal(BabySealingFamily.dueText, .expectedBirthDate, of: profile)
                try await home.stack.pool.query(
                    """
                    UPDATE family.baby_profiles SET name_sealed = \(name)::bytea,
                        expected_birth_date_sealed = \(date)::bytea
                    WHERE profile_id = \(profile)::uuid
                    """)
            }

            let rotations = BabySealRotation.all(database: home.stack.pool, cipher: TestDataKeys.cipher)
            async let names = rotations[0].resealAll()
            async let dates = rotations[1].resealAll()
            for (index, profile) in profiles.enumerated() where index.isMultiple(of: 2) {
                _ = try await home.family.updateBabyProfile(
                    .init(
                        updateMask: ["name"],
                        profile: .init(profileID: profile.description, name: "Renamed \(index)")),
                    options: home.mum.bearer)
            }
            #expect(try await names <= profiles.count)
            #expect(try await dates == profiles.count)

            let stored = try await home.stack.pool.query(
                """
                SELECT name, expected_birth_date::text, name_sealed, expected_birth_date_sealed
                FROM family.baby_profiles
                """
            ).map { try $0.decode((String?, String?, [UInt8]?, [UInt8]?).self) }
            #expect(stored.count == profiles.count)
            #expect(stored.allSatisfy { $0.0 == nil && $0.1 == nil })
            #expect(
                stored.allSatisfy { row in
                    [row.2, row.3].allSatisfy { $0.flatMap(FieldCipher.keyID(of:)) == "test-2" }
                })
            let listed = try await home.family.listMyBabyProfiles(.init(), options: home.mum.bearer).profiles
            let expected = Dictionary(
                uniqueKeysWithValues: profiles.enumerated().map { index, profile in
                    (profile.description, index.isMultiple(of: 2) ? "Renamed \(index)" : "Baby \(index)")
                })
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.profileID, $0.name) }) == expected)
            #expect(listed.allSatisfy { $0.expectedBirthDate == BabySealingFamily.due })
        }
    }

    @Test func kindredFamilyHasTheRotateDataCommand() {
        #expect(FamilyService.definition.commands.map(\.words).contains(["keys", "rotate-data"]))
    }

    /// The profile, the countdown and the announcement read as `BabySealingFamily` wrote them, arrival
    /// included.
    static func expectReadsRight(_ home: BabySealingFamily) async throws {
        let profile = try await home.family.getBabyProfile(
            .init(profileID: home.profile.description), options: home.aunt.bearer
        ).profile
        #expect(profile?.name == "Rosalind" && profile?.expectedBirthDate == BabySealingFamily.due)
        let onHome = try await home.family.getHome(.init(), options: home.aunt.bearer)
        #expect(onHome.countdowns.map(\.message) == ["Rosalind is arriving in less than 3 days!"])
        let arrival = onHome.arrivals.first
        #expect(arrival?.name == "Rosalind" && arrival?.birthDate == BabySealingFamily.arrival.birthDate)
        #expect(arrival?.birthTime == .init(hours: 14, minutes: 5))
        #expect(arrival?.weightGrams == 3_457 && arrival?.lengthMm == 512)
        #expect(arrival?.message == "Mother and baby are doing well.")
    }
}
