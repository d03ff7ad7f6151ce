import KindredAPI
import KindredMessages
import KindredEvents
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Name suggestions: one per person per gender, no duplicate names on a profile, likes once per member.
@Suite struct BabyNameSuggestionTests {
    @Test func aDuplicateNameWithOtherCaseAccentsAndSpacingIsRefusedNamingTheExistingOne() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let first = try await stack.suggest("Zoë Anne", .girl, on: profile, as: grandma)
            let refused = await rpcError {
                try await stack.suggest("  zoe  ANNE ", .girl, on: profile, as: mum)
            }
            #expect(refused?.code == .alreadyExists && refused?.reason == "NAME_ALREADY_SUGGESTED")
            #expect(refused?.metadata == ["suggestion_id": first.suggestionID, "name": "Zoë Anne"])
            #expect(
                refused?.message == "The name “Zoë Anne” has already been suggested; you can like it instead."
            )
            let asBoy = await rpcError { try await stack.suggest("ZOEANNE", .boy, on: profile, as: mum) }
            #expect(asBoy?.reason == "NAME_ALREADY_SUGGESTED")
        }
    }

    @Test func onePerPersonPerGenderAndARetryReturnsTheFirst() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let girl = try await stack.suggest("Alba", .girl, on: profile, as: grandma)
            #expect(try await stack.suggest("alba", .girl, on: profile, as: grandma) == girl)
            let second = await rpcError { try await stack.suggest("Nora", .girl, on: profile, as: grandma) }
            #expect(second?.code == .alreadyExists && second?.reason == "ONE_NAME_PER_GENDER")
            #expect(second?.metadata["suggestion_id"] == girl.suggestionID)
            let boy = try await stack.suggest("Leo", .boy, on: profile, as: grandma)
            #expect(boy.gender == .boy && boy.suggestedByUserID == grandma.id)
            let listed = try await stack.gamification.listBabyNameSuggestions(
                .init(profileID: profile), options: mum.bearer)
            #expect(Set(listed.suggestions.map(\.name)) == ["Alba", "Leo"])
        }
    }

    @Test func aMemberLikesOnceAndTheSuggesterIsToldThroughAnEvent() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let stranger = try await stack.register("stranger")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let alba = try await stack.suggest("Alba", .girl, on: profile, as: grandma)
            let like = Kindred_Gamification_V1_LikeBabyNameSuggestionRequest(
                profileID: profile, suggestionID: alba.suggestionID)
            _ = try await stack.gamification.likeBabyNameSuggestion(like, options: grandma.bearer)  // her own
            let liked = try await stack.gamification.likeBabyNameSuggestion(like, options: mum.bearer)
            let again = try await stack.gamification.likeBabyNameSuggestion(like, options: mum.bearer)
            #expect(liked.suggestion?.likes == 2 && liked.suggestion?.likedByMe == true)
            #expect(again.suggestion == liked.suggestion)

            let events = try await EventOutbox(schema: "gamification").appended(
                type: "baby_name.liked", on: stack.pool)
            #expect(events.count == 1, "one event for mum's like; none for her retry or grandma's own like")
            let event = try Kindred_Gamification_V1_Event(serializedBytes: events[0].payload)
            guard case .babyNameLiked(let told) = event.payload else {
                Issue.record("not a baby_name.liked payload")
                return
            }
            #expect(told.suggestedByUserID == grandma.id && told.likedByUserID == mum.id && told.likes == 2)

            let strangers = await rpcError {
                try await stack.gamification.likeBabyNameSuggestion(like, options: stranger.bearer)
            }
            #expect(strangers?.code == .notFound && strangers?.reason == "BABY_PROFILE_NOT_FOUND")
        }
    }
}

/// The owners control the name suggestions: every new one is announced to them through an event, and they
/// remove any one with its likes.
@Suite struct BabyNameSuggestionOwnerTests {
    @Test func eachNewSuggestionIsOneEventForFamilyAndARetryNone() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let alba = try await stack.suggest("Alba", .girl, on: profile, as: grandma)
            _ = try await stack.suggest("alba", .girl, on: profile, as: grandma)
            _ = await rpcError { try await stack.suggest("ALBA", .boy, on: profile, as: mum) }

            let events = try await EventOutbox(schema: "gamification").appended(
                type: "baby_name.suggested", on: stack.pool)
            #expect(events.count == 1, "one event for the suggestion; none for the retry or the refused twin")
            let event = try Kindred_Gamification_V1_Event(serializedBytes: events[0].payload)
            guard case .babyNameSuggested(let told) = event.payload else {
                Issue.record("not a baby_name.suggested payload")
                return
            }
            #expect(told.profileID == profile && told.suggestionID == alba.suggestionID)
            #expect(told.name == "Alba" && told.gender == .girl && told.suggestedByUserID == grandma.id)
        }
    }

    @Test func anOwnerRemovesAnySuggestionWithItsLikesAndAFollowerCannot() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let grandpa = try await stack.register("grandpa", age: 72)
            let stranger = try await stack.register("stranger")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, grandpa])
            let alba = try await stack.suggest("Alba", .girl, on: profile, as: grandma)
            let leo = try await stack.suggest("Leo", .boy, on: profile, as: grandpa)
            _ = try await stack.gamification.likeBabyNameSuggestion(
                .init(profileID: profile, suggestionID: alba.suggestionID), options: grandpa.bearer)
            let remove = Kindred_Gamification_V1_DeleteBabyNameSuggestionRequest(
                profileID: profile, suggestionID: alba.suggestionID)

            let follower = await rpcError {
                try await stack.gamification.deleteBabyNameSuggestion(remove, options: grandma.bearer)
            }
            #expect(follower?.code == .permissionDenied && follower?.reason == "BABY_PROFILE_OWNERS_ONLY")
            let outsider = await rpcError {
                try await stack.gamification.deleteBabyNameSuggestion(remove, options: stranger.bearer)
            }
            #expect(outsider?.code == .notFound && outsider?.reason == "BABY_PROFILE_NOT_FOUND")

            _ = try await stack.gamification.deleteBabyNameSuggestion(remove, options: mum.bearer)
            let listed = try await stack.gamification.listBabyNameSuggestions(
                .init(profileID: profile), options: grandma.bearer)
            #expect(listed.suggestions.map(\.suggestionID) == [leo.suggestionID])
            let likes = try await stack.pool.query(
                "SELECT 1 FROM gamification.baby_name_likes WHERE suggestion_id = \(alba.suggestionID)::uuid")
            #expect(likes.isEmpty)
            let again = await rpcError {
                try await stack.gamification.deleteBabyNameSuggestion(remove, options: mum.bearer)
            }
            #expect(again?.code == .notFound && again?.reason == "SUGGESTION_NOT_FOUND")
            // The name is free again: grandma may suggest it anew.
            #expect(try await stack.suggest("Alba", .girl, on: profile, as: grandma).likes == 0)

            let malformed = await rpcError {
                try await stack.gamification.deleteBabyNameSuggestion(
                    .init(profileID: profile), options: mum.bearer)
            }
            #expect(malformed?.code == .invalidArgument && malformed?.badFields == ["suggestion_id"])
        }
    }
}

extension GamificationTestStack {
    /// Suggests `name` for `gender` on `profile` as `user`.
    func suggest(
        _ name: String, _ gender: Kindred_Gamification_V1_BabyVoteGender, on profile: String,
        as user: TestUser
    ) async throws -> Kindred_Gamification_V1_BabyNameSuggestion {
        try #require(
            try await gamification.suggestBabyName(
                .init(profileID: profile, name: name, gender: gender), options: user.bearer
            ).suggestion)
    }
}
