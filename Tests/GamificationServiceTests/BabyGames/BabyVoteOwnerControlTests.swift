import KindredAPI
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The owners control the secret vote before the arrival: they end it or reset it, and learn nothing of the
/// votes by either.
@Suite struct BabyVoteOwnerControlTests {
    @Test func anEndedVoteTakesNoVoteAndKeepsTheCastOnesSecretUntilTheArrivalRevealsThem() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let aunt = try await stack.register("aunt")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, aunt])
            try await stack.vote(.gender(.girl), on: profile, as: grandma)

            let ended = try await stack.gamification.endBabyVote(
                .init(profileID: profile), options: mum.bearer)
            #expect(try ended.serializedBytes().isEmpty, "ending answers nothing about the votes")
            _ = try await stack.gamification.endBabyVote(.init(profileID: profile), options: mum.bearer)
            let late = await rpcError { try await stack.vote(.gender(.boy), on: profile, as: aunt) }
            #expect(late?.code == .failedPrecondition && late?.reason == "VOTING_CLOSED")
            #expect(
                late?.message
                    == "The parents have ended the vote; the results are revealed when the baby arrives.")
            let secret = await rpcError { try await stack.results(of: profile, options: mum.bearer) }
            #expect(secret?.reason == "VOTES_NOT_REVEALED")

            try await stack.withFamilyEvents {
                try await stack.announceArrival(of: profile, born: day(2027, 3, 10))
                try await stack.awaitReveal(of: profile)
            }
            let results = try await stack.results(of: profile, options: aunt.bearer)
            #expect(
                results.genderTallies.map(\.gender) == [.girl] && results.genderTallies.map(\.votes) == [1])
            let afterReveal = await rpcError {
                try await stack.gamification.endBabyVote(.init(profileID: profile), options: mum.bearer)
            }
            #expect(
                afterReveal?.code == .failedPrecondition && afterReveal?.reason == "VOTES_ALREADY_REVEALED")
        }
    }

    @Test func aResetDeletesEveryVoteUnreadAndOpensVotingAgain() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let aunt = try await stack.register("aunt")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, aunt])
            try await stack.vote(.gender(.girl), on: profile, as: grandma)
            try await stack.vote(.name("Alba"), on: profile, as: aunt)
            _ = try await stack.gamification.endBabyVote(.init(profileID: profile), options: mum.bearer)

            let reset = try await stack.gamification.resetBabyVote(
                .init(profileID: profile), options: mum.bearer)
            #expect(try reset.serializedBytes().isEmpty, "resetting answers nothing about the votes")
            let left = try await stack.pool.query(
                "SELECT 1 FROM gamification.baby_votes WHERE profile_id = \(profile)::uuid")
            #expect(left.isEmpty)
            try await stack.vote(.gender(.boy), on: profile, as: aunt)

            try await stack.withFamilyEvents {
                try await stack.announceArrival(of: profile, born: day(2027, 3, 10))
                try await stack.awaitReveal(of: profile)
            }
            let results = try await stack.results(of: profile, options: grandma.bearer)
            #expect(results.genderTallies.map(\.gender) == [.boy] && results.nameTallies.isEmpty)
            #expect(results.myVotes?.gender == .unspecified, "grandma's vote went with the reset")
            let afterReveal = await rpcError {
                try await stack.gamification.resetBabyVote(.init(profileID: profile), options: mum.bearer)
            }
            #expect(afterReveal?.reason == "VOTES_ALREADY_REVEALED")
        }
    }

    @Test func followersAreRefusedAndStrangersAreToldTheProfileDoesNotExist() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let stranger = try await stack.register("stranger")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.vote(.gender(.girl), on: profile, as: grandma)
            for caller in [grandma, stranger] {
                let end = await rpcError {
                    try await stack.gamification.endBabyVote(
                        .init(profileID: profile), options: caller.bearer)
                }
                let reset = await rpcError {
                    try await stack.gamification.resetBabyVote(
                        .init(profileID: profile), options: caller.bearer)
                }
                let expected = caller.id == grandma.id ? "BABY_PROFILE_OWNERS_ONLY" : "BABY_PROFILE_NOT_FOUND"
                #expect(end?.reason == expected && reset?.reason == expected, "\(caller.username)")
            }
            try await stack.vote(.gender(.boy), on: profile, as: grandma)
            let malformed = await rpcError {
                try await stack.gamification.endBabyVote(.init(profileID: "x"), options: mum.bearer)
            }
            #expect(malformed?.code == .invalidArgument && malformed?.badFields == ["profile_id"])
        }
    }
}
