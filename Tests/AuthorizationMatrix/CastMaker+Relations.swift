@testable import ServiceTestSupport
import Testing

extension CastMaker {
    /// What the cast's people have to do with each other beyond the profile: the follower is the owner's friend
    /// (so they share a conversation, see the owner's private event and joined the owner's challenge), the
    /// minor has asked their guardian for an approval, and three friend requests wait.
    func relations(
        into cast: inout Cast, owner: TestUser, follower: TestUser, stranger: TestUser, guardian: TestUser,
        minor: TestUser
    ) async throws {
        try await stack.befriend(owner, follower)
        cast.conversation = try await id(
            "SocialService/SendMessage",
            ["request_id": newRequestID, "recipient_user_id": .text(follower.id), "text": "Hi"], owner,
            at: [1, 2])
        cast.socialEvent = try await id(
            "SocialService/CreateEvent",
            [
                "request_id": newRequestID, "title": "Tea", "starts_at.seconds": inAMonth,
                "place": "The park",
                "visibility": 2,
            ], owner)
        cast.challenge = try await id(
            "GamificationService/CreateChallenge",
            [
                "request_id": newRequestID, "name": "Less video", "app_id": "youtube",
                "daily_limit_minutes": 60,
                "duration_days": 7, "difficulty": 1,
            ], owner)
        let invited = try await matrix.call(
            "GamificationService/InviteToChallenge",
            ["challenge_id": .text(cast.challenge), "user_id": .text(follower.id)], token: owner.accessToken)
        let accepted = try await matrix.call(
            "GamificationService/RespondToChallengeInvitation",
            ["challenge_id": .text(cast.challenge), "accept": true], token: follower.accessToken)
        try #require(
            invited.code == .ok && accepted.code == .ok, "the follower joins: \(invited), \(accepted)")
        cast.approval = try await id(
            "FamilyService/CreateApprovalRequest",
            ["minor_user_id": .text(minor.id), "kind": 1, "subject_id": newRequestID, "summary": "A picnic"],
            minor)
        cast.acceptRequest = try await id(
            "SocialService/SendFriendRequest", ["to.user_id": .text(owner.id)], stranger)
        cast.declineRequest = try await id(
            "SocialService/SendFriendRequest", ["to.user_id": .text(owner.id)], guardian)
        cast.cancelRequest = try await id(
            "SocialService/SendFriendRequest", ["to.user_id": .text(minor.id)], owner)
    }

    /// A popular challenge, which only an admin creates and anyone joins.
    func popularChallenge(by admin: String) async throws -> String {
        let created = try await matrix.call(
            "GamificationService/CreatePopularChallenge",
            [
                "request_id": newRequestID, "name": "Screen-free week", "app_id": "youtube",
                "daily_limit_minutes": 30, "duration_days": 7, "coin_award": 50,
            ], token: admin)
        return try #require(created.text(at: [1, 1]), "the admin's popular challenge: \(created)")
    }
}
