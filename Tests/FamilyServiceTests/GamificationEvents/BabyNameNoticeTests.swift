@testable import FamilyService
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Gamification's `baby_name.suggested` and `baby_name.liked`, as family's consumer applies them: the owners
/// hear of a suggestion and the suggester of a like, once each, unless they switched the kind off or are no
/// longer a member.
@Suite struct BabyNameNoticeTests {
    @Test func theOwnersHearOfAFollowersSuggestionOnceInAppAndPush() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let grandma = try await stack.register("grandma", age: 70)
            let grandpa = try await stack.register("grandpa", age: 72)
            try await stack.name(mum, first: "Ann", last: "Lopez")
            try await stack.name(grandma, display: "Grandma Rose")
            let profile = try await stack.babyProfile(
                ownedBy: mum, coOwner: dad, followers: [grandma, grandpa])
            let device = try await stack.family.registerPushDevice(
                .init(platform: .apns, deviceToken: "dad-phone", pushEnabled: true), options: dad.bearer)
            let suggested = stack.nameSuggested("Ava", on: profile, by: grandma)

            try await stack.applyGamificationEvent(suggested)
            try await stack.applyGamificationEvent(suggested)

            for owner in [mum, dad] {
                let notices = try await stack.notices(of: owner)
                #expect(
                    notices.map(\.kind) == [
                        Int(Kindred_Family_V1_NotificationKind.babyNameSuggested.rawValue)
                    ])
                #expect(notices.first?.title == "Baby Lopez")
                #expect(notices.first?.body == "Grandma Rose suggested the name Ava.")
            }
            #expect(try await stack.notices(of: grandma).isEmpty)
            #expect(try await stack.notices(of: grandpa).isEmpty)
            let pushed = try await stack.pool.query(
                "SELECT kind::int FROM family.push_outbox WHERE device_id = \(try #require(device.device).deviceID)::uuid"
            ).map { try $0.decode(Int.self, column: 0) }
            #expect(pushed == [Int(Kindred_Family_V1_NotificationKind.babyNameSuggested.rawValue)])
            let listed = try await stack.family.listNotifications(.init(), options: mum.bearer)
            #expect(listed.notifications.map(\.kind) == [.babyNameSuggested])
        }
    }

    @Test func anOwnerWhoMutedSuggestionsHearsNothingAndTheOtherOwnerStillDoes() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, coOwner: dad, followers: [grandma])
            let saved = try await stack.family.updateNotificationSettings(
                .init(
                    settings: .init(
                        activityAlerts: true, weeklySummary: true, mutedKinds: [.babyNameSuggested])),
                options: mum.bearer)
            #expect(saved.settings?.mutedKinds == [.babyNameSuggested])

            try await stack.applyGamificationEvent(stack.nameSuggested("Ava", on: profile, by: grandma))

            #expect(try await stack.notices(of: mum).isEmpty)
            #expect(try await stack.notices(of: dad).count == 1)
        }
    }

    @Test func anOwnersSuggestionTellsTheCoOwnerOnlyAndADeactivatedProfileNobody() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let profile = try await stack.babyProfile(ownedBy: mum, coOwner: dad)
            try await stack.applyGamificationEvent(stack.nameSuggested("Ava", on: profile, by: mum))
            #expect(try await stack.notices(of: mum).isEmpty)
            #expect(try await stack.notices(of: dad).map(\.body) == ["Someone suggested the name Ava."])

            try await stack.pool.query(
                "UPDATE family.baby_profiles SET active = false WHERE profile_id = \(profile)::uuid")
            try await stack.applyGamificationEvent(
                stack.nameSuggested("Leo", on: profile, by: mum, id: "0190f0f0-0000-7000-8000-000000000002"))
            #expect(try await stack.notices(of: dad).count == 1)
        }
    }

    @Test func theSuggesterHearsWhoLikedTheirNameOnceHoweverOftenTheEventArrives() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let grandpa = try await stack.register("grandpa", age: 72)
            try await stack.name(mum, first: "Ann", last: "Lopez")
            try await stack.name(grandpa, display: "Grandpa Joe")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, grandpa])
            let liked = stack.nameLiked("Ava", on: profile, suggestedBy: grandma, likedBy: grandpa)

            try await stack.applyGamificationEvent(liked)
            try await stack.applyGamificationEvent(liked)

            let notices = try await stack.notices(of: grandma)
            #expect(notices.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.babyNameLiked.rawValue)])
            #expect(notices.first?.title == "Baby Lopez")
            #expect(notices.first?.body == "Grandpa Joe liked your name idea Ava.")
            #expect(try await stack.notices(of: grandpa).isEmpty)
            #expect(try await stack.notices(of: mum).isEmpty)
        }
    }

    @Test func aSuggesterWhoSwitchedTheKindOffHearsNothing() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let saved = try await stack.family.updateNotificationSettings(
                .init(
                    settings: .init(activityAlerts: true, weeklySummary: true, mutedKinds: [.babyNameLiked])),
                options: grandma.bearer)
            #expect(saved.settings?.mutedKinds == [.babyNameLiked])

            try await stack.applyGamificationEvent(
                stack.nameLiked("Ava", on: profile, suggestedBy: grandma, likedBy: mum))

            #expect(try await stack.notices(of: grandma).isEmpty)
        }
    }

    @Test func aSuggesterWhoLeftTheProfileHearsNothing() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            _ = try await stack.family.leaveBabyProfile(
                .init(profileID: profile.description), options: grandma.bearer)

            try await stack.applyGamificationEvent(
                stack.nameLiked("Ava", on: profile, suggestedBy: grandma, likedBy: mum))

            #expect(try await stack.notices(of: grandma).isEmpty)
        }
    }

    @Test func otherGamificationEventsChangeNothing() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let coins = Kindred_Gamification_V1_Event(
                cursor: 1, type: "coins.changed", payload: .coinsChanged(.init(userID: mum.id, balance: 5)))

            try await stack.applyGamificationEvent(coins)

            #expect(try await stack.notices(of: mum).isEmpty)
        }
    }
}

extension FamilyTestStack {
    /// Gamification's event for `liker` liking `suggester`'s suggestion of `name` on `profile`.
    func nameLiked(
        _ name: String, on profile: BabyProfileID, suggestedBy suggester: TestUser, likedBy liker: TestUser
    )
        -> Kindred_Gamification_V1_Event
    {
        Kindred_Gamification_V1_Event(
            cursor: 1, type: "baby_name.liked",
            payload: .babyNameLiked(
                .init(
                    profileID: profile.description, suggestionID: "0190f0f0-0000-7000-8000-000000000001",
                    name: name, suggestedByUserID: suggester.id, likedByUserID: liker.id, likes: 1)))
    }

    /// Gamification's event for `suggester` suggesting `name` on `profile`.
    func nameSuggested(
        _ name: String, on profile: BabyProfileID, by suggester: TestUser,
        id: String = "0190f0f0-0000-7000-8000-000000000001"
    ) -> Kindred_Gamification_V1_Event {
        Kindred_Gamification_V1_Event(
            cursor: 1, type: "baby_name.suggested",
            payload: .babyNameSuggested(
                .init(
                    profileID: profile.description, suggestionID: id, name: name, gender: .girl,
                    suggestedByUserID: suggester.id)))
    }

    /// Applies `event` as family's consumer of gamification's events does, in a transaction of its own.
    func applyGamificationEvent(_ event: Kindred_Gamification_V1_Event) async throws {
        let notices = BabyNameNotices(
            clock: clock.wallClock, seals: BabySeals(cipher: TestDataKeys.cipher))
        try await pool.transaction { tx in try await notices.apply(event, in: tx) }
    }
}
