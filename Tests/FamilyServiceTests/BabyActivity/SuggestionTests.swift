@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `ListSuggestions`: the shipped catalogue's entries by stage of the baby's life (the current stage's, one
/// stage's or every stage's), for owners.
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
                    let rows = try await BabyHomeStore.suggestions(
                        stages: [Int(raw)], gender: gender, on: pool)
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

    @Test func anOwnerListsAnyOneStagesSuggestionsWhateverTheBabysAge() async throws {
        try await FamilyTestStack.with(clock: TestClock(TestClock.farFromToday)) { stack in
            let mum = try await stack.register("mum", age: 30)
            // Due in 5 weeks: the third trimester.
            let expecting = try await stack.babyProfile(ownedBy: mum, expectedBirth: stack.clock.midnight(35))
            let undated = try await stack.babyProfile(ownedBy: mum)
            for profile in [expecting, undated] {
                let sixMonths = try await stack.family.listSuggestions(
                    .init(profileID: profile.description, stage: .month6), options: mum.bearer)
                #expect(sixMonths.stage == .month6)
                #expect(
                    !sixMonths.suggestions.isEmpty && sixMonths.suggestions.allSatisfy { $0.stage == .month6 }
                )
                #expect(sixMonths.suggestions.allSatisfy { $0.suggestionKey.hasPrefix("m6-") })
            }
            let current = try await stack.family.listSuggestions(
                .init(profileID: expecting.description), options: mum.bearer)
            #expect(current.suggestions.allSatisfy { $0.stage == .trimester3 })
        }
    }

    @Test func anOwnerListsEveryStagesSuggestionsInStageOrderMarkedWithTheCurrentStage() async throws {
        try await FamilyTestStack.with(clock: TestClock(TestClock.farFromToday)) { stack in
            let mum = try await stack.register("mum", age: 30)
            // Born 11 weeks ago: 2 months old.
            let born = try await stack.babyProfile(ownedBy: mum, expectedBirth: stack.clock.midnight(-76))
            let all = try await stack.family.listSuggestions(
                .init(profileID: born.description, allStages: true), options: mum.bearer)
            #expect(all.stage == .month2 && all.catalogueVersion == 1)
            let stages = all.suggestions.map(\.stage)
            #expect(Set(stages) == Set(BabyStage.catalogued) && Set(stages).count == 16)
            #expect(stages == stages.sorted { $0.rawValue < $1.rawValue })
            var perStage = 0
            for stage in BabyStage.catalogued {
                let one = try await stack.family.listSuggestions(
                    .init(profileID: born.description, stage: stage), options: mum.bearer)
                #expect(one.suggestions == all.suggestions.filter { $0.stage == stage }, "\(stage)")
                perStage += one.suggestions.count
            }
            #expect(perStage == all.suggestions.count)

            let undated = try await stack.babyProfile(ownedBy: mum)
            let anyAge = try await stack.family.listSuggestions(
                .init(profileID: undated.description, allStages: true), options: mum.bearer)
            #expect(anyAge.stage == .unspecified && anyAge.suggestions.count == all.suggestions.count)
        }
    }

    @Test func anUnknownStageOrAStageWithAllStagesIsNamed() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum)
            let unknown = await rpcError {
                try await stack.family.listSuggestions(.init(stage: .unrecognized(99)), options: mum.bearer)
            }
            #expect(unknown?.code == .invalidArgument && unknown?.badFields == ["profile_id", "stage"])
            let both = await rpcError {
                try await stack.family.listSuggestions(
                    .init(profileID: profile.description, stage: .month1, allStages: true),
                    options: mum.bearer)
            }
            #expect(both?.code == .invalidArgument && both?.badFields == ["all_stages"])
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
