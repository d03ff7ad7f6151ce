import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Activity counters show on a user's profile to the people who share a baby profile with them, as family's
/// `SharesBabyProfile` says at the time of the read.
@Suite struct ActivityCounterSharingTests {
    @Test func membersOfOneProfileReadEachOthersCountersAndOthersAreRefused() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let dad = try await stack.register("dad")
            let grandma = try await stack.register("grandma", age: 70)
            let stranger = try await stack.register("stranger")
            let profile = try await stack.social.base.babyProfile(
                ownedBy: mum, coOwner: dad, followers: [grandma])
            try await stack.applyCounters(familyEvent(Payload.commentAdded, by: grandma, subject: "c1"))
            try await stack.applyCounters(familyEvent(Payload.photoSquished, by: mum, subject: "p1"))

            for (reader, user) in [(mum, grandma), (dad, grandma), (grandma, mum), (grandma, dad)] {
                let read = try await stack.gamification.getActivityCounters(
                    .init(userID: user.id), options: reader.bearer)
                #expect(read.counters?.userID == user.id, "\(reader.username) reads \(user.username)'s")
            }
            let seen = try await stack.gamification.getActivityCounters(
                .init(userID: grandma.id), options: dad.bearer)
            #expect(seen.counters?.commentsAdded == 1 && seen.counters?.photosSquished == 0)
            #expect(
                try await stack.gamification.getActivityCounters(
                    .init(userID: mum.id), options: grandma.bearer
                )
                .counters?.photosSquished == 1)

            let refused = await rpcError {
                try await stack.gamification.getActivityCounters(
                    .init(userID: grandma.id), options: stranger.bearer)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "ACTIVITY_COUNTERS_PRIVATE")

            // Family answers at the time of the read: once grandma left, mum no longer sees her counters.
            _ = try await stack.social.family.leaveBabyProfile(
                .init(profileID: profile.description), options: grandma.bearer)
            let left = await rpcError {
                try await stack.gamification.getActivityCounters(
                    .init(userID: grandma.id), options: mum.bearer)
            }
            #expect(left?.reason == "ACTIVITY_COUNTERS_PRIVATE")
        }
    }

    @Test func aDeactivatedProfileSharesNothing() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.social.base.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.pool.query(
                "UPDATE family.baby_profiles SET active = false WHERE profile_id = \(profile)::uuid")
            let refused = await rpcError {
                try await stack.gamification.getActivityCounters(
                    .init(userID: mum.id), options: grandma.bearer)
            }
            #expect(refused?.reason == "ACTIVITY_COUNTERS_PRIVATE")
        }
    }
}
