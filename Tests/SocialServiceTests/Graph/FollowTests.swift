@testable import ServiceTestSupport
import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// Follows, the lists only their owner sees, and the cheap `IsFollowing` other services ask.
@Suite struct FollowTests {
    @Test func aFollowIsOneWayFollowingTwiceChangesNothingAndUnfollowingIsIdempotent() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            try await stack.followByRPC(anna, ben)
            let since = try await stack.social.listFollowing(.init(), options: anna.bearer).following
            stack.clock.advance(seconds: 60)
            try await stack.followByRPC(anna, ben)
            #expect(try await stack.social.listFollowing(.init(), options: anna.bearer).following == since)
            #expect(since.map(\.person) == [Kindred_Social_V1_Person(userID: ben.id, username: "ben")])
            let followers = try await stack.social.listFollowers(.init(userID: ben.id), options: ben.bearer)
            #expect(followers.followers.map(\.person?.username) == ["anna"])
            #expect(try await stack.relationship(anna, ben) == Relationship(follows: true))
            for _ in 0..<2 {
                _ = try await stack.social.unfollow(.init(userID: ben.id), options: anna.bearer)
            }
            #expect(try await stack.relationship(anna, ben) == Relationship())
        }
    }

    @Test func followingYourselfOrSomeoneUnknownIsRefused() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let yourself = await rpcError {
                try await stack.social.follow(.init(userID: anna.id), options: anna.bearer)
            }
            #expect(yourself?.reason == "SELF_NOT_ALLOWED")
            let unknown = await rpcError {
                try await stack.social.follow(
                    .init(userID: UUIDv7.generate(at: stack.clock.now)), options: anna.bearer)
            }
            #expect(unknown?.code == .notFound && unknown?.reason == "USER_NOT_FOUND")
            let malformed = await rpcError {
                try await stack.social.follow(.init(userID: ""), options: anna.bearer)
            }
            #expect(malformed?.badFields == ["user_id"])
        }
    }

    @Test func anotherUsersFollowersAndFollowingAreNotYourList() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            try await stack.followByRPC(anna, ben)
            let followers = await rpcError {
                try await stack.social.listFollowers(.init(userID: ben.id), options: anna.bearer)
            }
            let following = await rpcError {
                try await stack.social.listFollowing(.init(userID: anna.id), options: ben.bearer)
            }
            for refusal in [followers, following] {
                #expect(refusal?.code == .permissionDenied && refusal?.reason == "NOT_YOUR_LIST")
            }
            let own = try await stack.social.listFollowing(
                .init(userID: anna.id.uppercased()), options: anna.bearer)
            #expect(own.following.map(\.person?.userID) == [ben.id])
        }
    }

    @Test func aMalformedUserIdIsNamedWithTheBadPagingFieldsInOneAnswer() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let badPage = Kindred_Common_V1_PageRequest(pageToken: "garbage!")
            let refusals = [
                await rpcError {
                    try await stack.social.listFollowers(
                        .init(userID: "anna", page: badPage), options: anna.bearer)
                },
                await rpcError {
                    try await stack.social.listFollowing(
                        .init(userID: "anna", page: badPage), options: anna.bearer)
                },
            ]
            for refused in refusals {
                #expect(
                    refused?.code == .invalidArgument && refused?.badFields == ["user_id", "page.page_token"])
            }
            let anonymous = await rpcError {
                try await stack.social.listFollowers(
                    .init(userID: "anna", page: badPage), options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)
        }
    }

    @Test func aFollowListDraftNamesEveryBadFieldAndReadsAnEmptyUserIdAsTheCaller() throws {
        let me = UserID.generate(at: Date())
        let refused = #expect(throws: RPCError.self) {
            try FollowListDraft(.following, of: "me", .init(pageSize: -1, pageToken: "x"), as: me)
        }
        #expect(refused?.badFields == ["user_id", "page.page_size", "page.page_token"])
        #expect(try FollowListDraft(.followers, of: "", nil, as: me).owner == me)
        let other = UserID.generate(at: Date())
        let named = try FollowListDraft(.followers, of: other.description.uppercased(), nil, as: me)
        #expect(named.owner == other && named.page.owner == me)
    }

    @Test func isFollowingAnswersTheFollowerAndServicesInTheRequestsOrderAndNobodyElse() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            try await stack.followByRPC(anna, ben)
            try await stack.followByRPC(anna, cleo)
            let asked = [cleo.id, UUIDv7.generate(at: stack.clock.now), ben.id.uppercased(), anna.id]
            for options in [anna.bearer, try await stack.serviceBearer()] {
                let answer = try await stack.social.isFollowing(
                    .init(followerUserID: anna.id, userIds: asked), options: options)
                #expect(answer.followedUserIds == [cleo.id, ben.id.uppercased()])
            }
            let stranger = await rpcError {
                try await stack.social.isFollowing(
                    .init(followerUserID: anna.id, userIds: [ben.id]), options: cleo.bearer)
            }
            #expect(stranger?.code == .permissionDenied && stranger?.reason == "NOT_YOUR_RELATIONSHIP")
        }
    }

    @Test func isFollowingRefusesMoreThan500UsersAndNamesEachMalformedOne() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let service = try await stack.serviceBearer()
            let tooMany = await rpcError {
                try await stack.social.isFollowing(
                    .init(
                        followerUserID: anna.id,
                        userIds: (0...500).map { _ in UUIDv7.generate(at: stack.clock.now) }),
                    options: service)
            }
            #expect(tooMany?.badFields == ["user_ids"])
            let malformed = await rpcError {
                try await stack.social.isFollowing(
                    .init(followerUserID: "me", userIds: [anna.id, "42", ""]), options: service)
            }
            #expect(malformed?.badFields == ["follower_user_id", "user_ids[1]", "user_ids[2]"])
            let fullBatch = try await stack.social.isFollowing(
                .init(
                    followerUserID: anna.id,
                    userIds: (0..<500).map { _ in UUIDv7.generate(at: stack.clock.now) }),
                options: service)
            #expect(fullBatch.followedUserIds.isEmpty)
        }
    }

    @Test func areFriendsAnswersEitherFriendAndServicesAndNobodyElse() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            try await stack.befriendByRPC(anna, ben)
            for options in [anna.bearer, ben.bearer, try await stack.serviceBearer()] {
                let answer = try await stack.social.areFriends(
                    .init(userID: anna.id, otherUserID: ben.id), options: options)
                #expect(answer.friends)
            }
            let notFriends = try await stack.social.areFriends(
                .init(userID: cleo.id, otherUserID: anna.id), options: cleo.bearer)
            #expect(notFriends.friends == false)
            let stranger = await rpcError {
                try await stack.social.areFriends(
                    .init(userID: anna.id, otherUserID: ben.id), options: cleo.bearer)
            }
            #expect(stranger?.code == .permissionDenied && stranger?.reason == "NOT_YOUR_RELATIONSHIP")
            let malformed = await rpcError {
                try await stack.social.areFriends(.init(userID: "x", otherUserID: ""), options: anna.bearer)
            }
            #expect(malformed?.badFields == ["user_id", "other_user_id"])
        }
    }
}
