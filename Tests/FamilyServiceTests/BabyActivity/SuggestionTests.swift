@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `ListSuggestions`: the shipped catalogue's entries for the baby's stage, for owners.
@Suite struct SuggestionTests {
    @Test(arguments: [
        (250, 0, BabyStage.trimester1), (190, 0, .trimester1), (189, 0, .trimester2), (92, 0, .trimester2),
        (91, 0, .trimester3), (1, 0, .trimester3), (0, 0, .newborn), (-20, 0, .newborn), (-31, 1, .month1),
        (-200, 6, .month6), (-370, 12, .month12), (-800, 26, .month12),
    ])
    func theStageFollowsTheDueDate(daysUntilDue: Int, monthsOld: Int, stage: BabyStage) {
        #expect(BabyStage.of(daysUntilDue: daysUntilDue, monthsOld: monthsOld) == stage)
    }

    @Test func everyStageHasFiveToTenSuggestionsOfBothTypes() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            for raw in Int32(1)...16 {
                for gender in [0, 1, 2] {
                    let rows = try await BabyHomeStore.suggestions(stage: Int(raw), gender: gender, on: pool)
                    #expect((5...10).contains(rows.count), "stage \(raw)")
                    #expect(Set(rows.map(\.type)) == [1, 2], "stage \(raw)")
                }
            }
        }
    }

    @Test func anOwnerGetsTheSuggestionsOfTheBabysStage() async throws {
        try await FamilyTestStack.with(clock: TestClock(TestClock.farFromToday)) { stack in
            let mum = try await stack.register("mum", age: 30)
            // Due in 5 weeks: the third trimester; born 11 weeks ago: 2 months old.
            let expecting = try await stack.babyProfile(ownedBy: mum, expectedBirth: stack.clock.midnight(35))
            let born = try await stack.babyProfile(ownedBy: mum, expectedBirth: stack.clock.midnight(-76))

            let third = try await stack.family.listSuggestions(
                .init(profileID: expecting.description), options: mum.bearer)
            #expect(third.stage == .trimester3 && third.catalogueVersion == 1)
            #expect(third.suggestions.map(\.suggestionKey).contains("t3-hospital-bag"))
            #expect(third.suggestions.contains { $0.type == .registryItem })

            let twoMonths = try await stack.family.listSuggestions(
                .init(profileID: born.description), options: mum.bearer)
            #expect(twoMonths.stage == .month2)
            #expect(twoMonths.suggestions.first?.suggestionKey == "m2-vaccinations")
        }
    }

    @Test func followersStrangersAndProfilesWithoutADueDateAreRefused() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            let stranger = try await stack.register("stranger", age: 40)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [aunt])
            let request = Kindred_Family_V1_ListSuggestionsRequest(profileID: profile.description)
            let follower = await rpcError {
                try await stack.family.listSuggestions(request, options: aunt.bearer)
            }
            #expect(follower?.code == .permissionDenied && follower?.reason == "BABY_PROFILE_OWNERS_ONLY")
            let outsider = await rpcError {
                try await stack.family.listSuggestions(request, options: stranger.bearer)
            }
            #expect(outsider?.code == .notFound && outsider?.reason == "BABY_PROFILE_NOT_FOUND")
            let undated = await rpcError {
                try await stack.family.listSuggestions(request, options: mum.bearer)
            }
            #expect(undated?.code == .failedPrecondition && undated?.reason == "EXPECTED_BIRTH_DATE_REQUIRED")
            let malformed = await rpcError {
                try await stack.family.listSuggestions(.init(), options: mum.bearer)
            }
            #expect(malformed?.code == .invalidArgument && malformed?.badFields == ["profile_id"])
        }
    }
}
