@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A baby's name, expected birth date and birth details are sealed at rest (family migration 22), and every
/// read that showed them shows them as before: the profile, the list, the countdown, the suggestions' stage,
/// the announcement, its share text, the invitation mail.
@Suite struct BabyDetailSealingTests {
    @Test func aDumpHoldsNoBabyNameExpectedDateOrBirthMeasures() async throws {
        try await BabySealingFamily.with { home in
            let announced = try await home.announce()
            #expect(
                announced.name == "Rosalind" && announced.weightGrams == 3_457 && announced.lengthMm == 512)
            #expect(announced.birthTime == .init(hours: 14, minutes: 5))
            #expect(announced.birthDate == BabySealingFamily.arrival.birthDate)

            let stored = try await home.storedRows()
            // Measures are looked for as whole values between a row's commas: sealed bytes' hex holds any
            // digits.
            let (due, born) = (BabySealingFamily.dueText, BabySealingFamily.bornText)
            for secret in ["Clementine", "Rosalind", due, born, "14:05", ",3457,", ",512,", "doing well"] {
                #expect(!stored.contains(secret), "the stored rows show \(secret)")
            }
            let sealing = try await home.sealing()
            #expect(sealing.keys == ["test-2", "test-2", "test-2", "test-2"] && sealing.plaintext == 0)
            let dump = try await dataDump(of: "family", on: home.stack.pool)
            #expect(dump.contains("family.baby_arrivals"))
            for secret in [due, born, "\t3457\t", "\t512\t"] {
                #expect(!dump.contains(secret), "the dump shows \(secret)")
            }
        }
    }

    @Test func theProfileTheListTheCountdownAndTheStageReadTheSealedValues() async throws {
        try await BabySealingFamily.with { home in
            let read = try #require(
                try await home.family.getBabyProfile(
                    .init(profileID: home.profile.description), options: home.aunt.bearer
                )
                .profile)
            #expect(read.name == "Clementine" && read.displayName == "Clementine")
            #expect(read.expectedBirthDate == BabySealingFamily.due)
            let listed = try await home.family.listMyBabyProfiles(.init(), options: home.mum.bearer).profiles
            #expect(listed.map(\.name) == ["Clementine"])
            #expect(listed.first?.expectedBirthDate == BabySealingFamily.due)

            let countdowns = try await home.family.getHome(.init(), options: home.aunt.bearer).countdowns
            #expect(countdowns.map(\.message) == ["Clementine is arriving in less than 3 days!"])
            #expect(countdowns.first?.expectedBirthDate == BabySealingFamily.due)
            let stage = try await home.family.listSuggestions(
                .init(profileID: home.profile.description), options: home.mum.bearer
            ).stage
            #expect(stage == .trimester3)

            // 20 weeks away: past the countdown's 10 days, in the second trimester.
            let later = home.stack.clock.date(140)
            _ = try await home.family.updateBabyProfile(
                .init(
                    updateMask: ["name", "expected_birth_date"],
                    profile: .init(
                        profileID: home.profile.description, name: "Clem", expectedBirthDate: later)),
                options: home.mum.bearer)
            let renamed = try await home.family.getBabyProfile(
                .init(profileID: home.profile.description), options: home.aunt.bearer
            ).profile
            #expect(
                renamed?.name == "Clem" && renamed?.expectedBirthDate == later)
            #expect(try await home.family.getHome(.init(), options: home.aunt.bearer).countdowns.isEmpty)
            #expect(
                try await home.family.listSuggestions(
                    .init(profileID: home.profile.description), options: home.mum.bearer
                )
                .stage == .trimester2)
            #expect(!(try await home.storedRows()).contains("Clem"))
        }
    }

    @Test func theAnnouncementItsShareTextAndTheInvitationMailReadTheSealedValues() async throws {
        try await BabySealingFamily.with { home in
            try await home.announce()
            let read = try await home.family.getArrival(
                .init(profileID: home.profile.description), options: home.aunt.bearer
            )
            .arrival
            #expect(read?.name == "Rosalind" && read?.weightGrams == 3_457 && read?.lengthMm == 512)
            #expect(read?.birthDate == BabySealingFamily.arrival.birthDate)
            let onHome = try await home.family.getHome(.init(), options: home.aunt.bearer).arrivals
            #expect(
                onHome.map(\.name) == ["Rosalind"] && onHome.first?.birthTime == .init(hours: 14, minutes: 5))
            let share = try await home.family.getArrivalShare(
                .init(profileID: home.profile.description), options: home.mum.bearer)
            // The day before `TestClock.farFromToday`, where the family's clock stands.
            #expect(share.text.hasPrefix("Welcome to the world, Rosalind! Born on 13 March 2061 at 14:05"))

            var corrected = BabySealingFamily.arrival
            corrected.weightGrams = 3_460
            corrected.birthTime = nil
            let updated = try await home.family.updateArrival(
                .init(profileID: home.profile.description, arrival: corrected), options: home.mum.bearer
            ).arrival
            #expect(updated?.name == "Rosalind" && updated?.weightGrams == 3_460 && updated?.birthTime == nil)

            _ = try await home.family.inviteToBabyProfile(
                .init(
                    requestID: "invite-gran", profileID: home.profile.description, email: "gran@example.com",
                    role: .follower),
                options: home.mum.bearer)
            let mail = try await TestMailbox(home.stack.pool, schema: "family").mail(to: "gran@example.com")
            #expect(mail.count == 1 && mail[0].body.contains("Rosalind"))
        }
    }
}
