import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// The drafts `AreFriends`, `IsFollowing` and `SendFriendRequest` read in their handlers: ids parsed once, in any case, every bad
/// field named in one answer, and a call without a token refused as such whatever its ids.
@Suite struct GraphDraftTests {
    @Test func aFriendPairNamesEachBadIdAndReadsAnyCase() throws {
        let refused = #expect(throws: RPCError.self) {
            try FriendPairDraft(.init(userID: "anna", otherUserID: ""))
        }
        #expect(refused?.badFields == ["user_id", "other_user_id"])
        let (anna, ben) = (UserID.generate(at: Date()), UserID.generate(at: Date()))
        let pair = try FriendPairDraft(
            .init(userID: anna.description.uppercased(), otherUserID: ben.description))
        #expect(pair.user == anna && pair.other == ben)
    }

    @Test func aFollowCheckNamesEveryBadFieldAndKeepsTheCandidatesAsWritten() throws {
        let refused = #expect(throws: RPCError.self) {
            try FollowCheckDraft(.init(followerUserID: "", userIds: [UUIDv7.generate(at: Date()), "x"]))
        }
        #expect(refused?.badFields == ["follower_user_id", "user_ids[1]"])
        let tooMany = #expect(throws: RPCError.self) {
            try FollowCheckDraft(
                .init(
                    followerUserID: "x",
                    userIds: Array(repeating: "y", count: FollowCheckDraft.maximumCandidates + 1)))
        }
        #expect(tooMany?.badFields == ["follower_user_id", "user_ids"])
        let ben = UserID.generate(at: Date())
        let draft = try FollowCheckDraft(
            .init(followerUserID: UUIDv7.generate(at: Date()), userIds: [ben.description.uppercased()]))
        #expect(draft.candidates == [ben] && draft.candidateTexts == [ben.description.uppercased()])
    }

    @Test func aRecipientIsAnIdInAnyCaseOrAWellFormedUsernameAndEachBadOneIsNamed() throws {
        let ben = UserID.generate(at: Date())
        #expect(try RecipientRef(.init(ref: .userID(ben.description.uppercased()))) == .userID(ben))
        #expect(try RecipientRef(.init(ref: .username("ben_1"))) == .username("ben_1"))
        for (ref, field) in [
            (Kindred_Social_V1_UserRef(ref: .userID("ben")), "to.user_id"),
            (Kindred_Social_V1_UserRef(ref: .username("b")), "to.username"),
            (Kindred_Social_V1_UserRef(), "to"),
        ] {
            let refused = #expect(throws: RPCError.self) { try RecipientRef(ref) }
            #expect(refused?.badFields == [field])
        }
    }

    @Test func withoutATokenMalformedIdsAreUnauthenticated() async throws {
        try await SocialTestStack.with { stack in
            let anonymous = FamilyTestStack.bearer(nil)
            let answers = [
                await rpcError {
                    try await stack.social.areFriends(.init(userID: "x", otherUserID: ""), options: anonymous)
                },
                await rpcError {
                    try await stack.social.isFollowing(
                        .init(followerUserID: "x", userIds: ["y"]), options: anonymous)
                },
                await rpcError {
                    try await stack.social.sendFriendRequest(
                        .init(to: .init(ref: .userID("x"))), options: anonymous)
                },
                await rpcError {
                    try await stack.social.inviteToEvent(
                        .init(eventID: "x", userIds: ["y"]), options: anonymous)
                },
            ]
            #expect(answers.allSatisfy { $0?.code == .unauthenticated })
        }
    }
}
