import Foundation
import KindredAPI
import KindredHandlers
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct ChallengeInvitationTests {
    @Test func aNonFriendIsRefusedWithTheAnswerAnUnknownUserGets() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            let challenge = try await stack.createChallenge(anna)
            for invitee in [ben.id, UserID.generate(at: Date()).description] {
                let error = try await #require(throws: RPCError.self) {
                    _ = try await stack.gamification.inviteToChallenge(
                        .init(challengeID: challenge.challengeID, userID: invitee), options: anna.bearer)
                }
                #expect(error.code == .permissionDenied)
                #expect(error.reason == "NOT_FRIENDS")
                #expect(error.message == "You can only invite your friends to a challenge.")
            }
            let invitations = try await stack.gamification.listChallenges(
                .init(list: .invitations), options: ben.bearer)
            #expect(invitations.challenges.isEmpty)
        }
    }

    @Test func aFormerFriendIsRefusedRightAfterTheUnfriend() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben, cleo) = (
                try await stack.register("anna"), try await stack.register("ben"),
                try await stack.register("cleo")
            )
            try await stack.befriend(anna, ben)
            try await stack.befriend(anna, cleo)
            let challenge = try await stack.createChallenge(anna)
            _ = try await stack.gamification.inviteToChallenge(
                .init(challengeID: challenge.challengeID, userID: cleo.id), options: anna.bearer)
            let (annaID, benID) = (try #require(UserID(anna.id)), try #require(UserID(ben.id)))
            #expect(
                try await stack.context.friends.areFriends(annaID, benID), "a yes social gave a moment ago")
            _ = try await stack.social.social.removeFriend(.init(userID: ben.id), options: anna.bearer)
            let error = await rpcError {
                _ = try await stack.gamification.inviteToChallenge(
                    .init(challengeID: challenge.challengeID, userID: ben.id), options: anna.bearer)
            }
            #expect(error?.code == .permissionDenied && error?.reason == "NOT_FRIENDS")
            let invitations = try await stack.gamification.listChallenges(
                .init(list: .invitations), options: ben.bearer)
            #expect(invitations.challenges.isEmpty)
        }
    }

    @Test func aFriendInvitedAcceptsAndTakesPartFromTheirNextMidnight() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            try await stack.befriend(anna, ben)
            let challenge = try await stack.createChallenge(anna)
            _ = try await stack.gamification.inviteToChallenge(
                .init(challengeID: challenge.challengeID, userID: ben.id), options: anna.bearer)
            let invitations = try await stack.gamification.listChallenges(
                .init(list: .invitations), options: ben.bearer)
            #expect(invitations.challenges.map(\.challengeID) == [challenge.challengeID])
            #expect(invitations.challenges.first?.invitedByUserID == anna.id)
            let accepted = try await stack.gamification.respondToChallengeInvitation(
                .init(challengeID: challenge.challengeID, accept: true), options: ben.bearer)
            #expect(accepted.challenge?.state == .active)
            #expect(accepted.challenge?.firstDay == challenge.firstDay)
            let declining = try await #require(throws: RPCError.self) {
                _ = try await stack.gamification.respondToChallengeInvitation(
                    .init(challengeID: challenge.challengeID, accept: false), options: ben.bearer)
            }
            #expect(declining.reason == "INVITATION_ANSWERED")
        }
    }

    @Test func aStrangerGetsNotFoundForAChallengeTheyAreNotIn() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let eve = try await stack.register("eve")
            let challenge = try await stack.createChallenge(anna)
            let unknown = ChallengeID.generate(at: Date()).description
            for id in [challenge.challengeID, unknown] {
                var calls: [() async throws -> Void] = [
                    {
                        _ = try await stack.gamification.forfeitChallenge(
                            .init(challengeID: id), options: eve.bearer)
                    },
                    {
                        _ = try await stack.gamification.respondToChallengeInvitation(
                            .init(challengeID: id, accept: true), options: eve.bearer)
                    },
                    {
                        _ = try await stack.gamification.getChallengeLeaderboard(
                            .init(challengeID: id), options: eve.bearer)
                    },
                    {
                        _ = try await stack.gamification.joinPopularChallenge(
                            .init(challengeID: id), options: eve.bearer)
                    },
                ]
                let watching = stack.gamification.watchChallengeLeaderboard(
                    .init(challengeID: id), options: eve.bearer)
                calls.append {
                    for try await _ in watching { break }
                }
                for call in calls {
                    let error = try await #require(throws: RPCError.self) { try await call() }
                    #expect(error.code == .notFound)
                    #expect(error.reason == "CHALLENGE_NOT_FOUND")
                }
            }
        }
    }
}
