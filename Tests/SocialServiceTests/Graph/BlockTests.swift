@testable import ServiceTestSupport
import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// Blocks: everything between the two ends at once, and each side trying anything afterwards is refused.
@Suite struct BlockTests {
    @Test func blockingEndsFriendshipFollowsAndRequestsBothWaysAtOnce() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            try await stack.befriendByRPC(anna, ben)
            try await stack.followByRPC(anna, ben)
            try await stack.followByRPC(ben, anna)
            try await stack.ask(cleo, anna)
            try await stack.followByRPC(anna, cleo)
            try await stack.blockByRPC(ben, anna)
            try await stack.blockByRPC(anna, cleo)
            #expect(try await stack.relationship(ben, anna) == Relationship(blocks: true))
            #expect(try await stack.relationship(anna, cleo) == Relationship(blocks: true))
            #expect(try await stack.pendingRequests(anna, cleo) == 0)
            let blocked = try await stack.social.listBlockedUsers(.init(), options: ben.bearer).users
            #expect(blocked == [Kindred_Social_V1_Person(userID: anna.id, username: "anna")])
        }
    }

    /// The one blocked cannot tell the blocker from a missing user; the blocker is told they blocked.
    @Test(arguments: [
        (true, StatusCode.notFound, "USER_NOT_FOUND"), (false, .failedPrecondition, "USER_BLOCKED"),
    ])
    func eachSideTryingAnyActionAcrossTheBlockIsRefused(blockedSide: Bool, code: StatusCode, reason: String)
        async throws
    {
        try await SocialTestStack.with { stack in
            let (blocker, blocked) = try await stack.adults("blocker", "blocked").pair
            let (user, other) = blockedSide ? (blocked, blocker) : (blocker, blocked)
            let earlier = try await stack.request(other, user)
            try await stack.blockByRPC(blocker, blocked)
            let attempts: [(String, () async throws -> Void)] = [
                ("a request by id", { try await stack.ask(user, other) }),
                (
                    "a request by username",
                    {
                        _ = try await stack.social.sendFriendRequest(
                            .init(to: .init(ref: .username(other.username))), options: user.bearer)
                    }
                ),
                ("a follow", { try await stack.followByRPC(user, other) }),
                (
                    "AreFriends",
                    {
                        _ = try await stack.social.areFriends(
                            .init(userID: user.id, otherUserID: other.id), options: user.bearer)
                    }
                ),
            ]
            for (attempt, call) in attempts {
                let refusal = await rpcError { try await call() }
                #expect(refusal?.code == code && refusal?.reason == reason, "\(attempt)")
            }
            // The block ended the request sent before it, so accepting it finds nothing.
            let accepting = await rpcError {
                try await stack.social.acceptFriendRequest(.init(requestID: earlier), options: user.bearer)
            }
            #expect(accepting?.code == .notFound && accepting?.reason == "FRIEND_REQUEST_NOT_FOUND")
            #expect(
                try await stack.relationship(user, other)
                    == Relationship(blocks: !blockedSide, blockedBy: blockedSide))
            #expect(try await stack.pendingRequests(user, other) == 0)
        }
    }

    @Test func aBlockedUserIsNotFriendsForServicesEither() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            try await stack.befriendByRPC(anna, ben)
            try await stack.followByRPC(ben, anna)
            try await stack.blockByRPC(anna, ben)
            let service = try await stack.serviceBearer()
            #expect(
                try await stack.social.areFriends(
                    .init(userID: ben.id, otherUserID: anna.id), options: service
                ).friends == false)
            let following = try await stack.social.isFollowing(
                .init(followerUserID: ben.id, userIds: [anna.id]), options: service)
            #expect(following.followedUserIds.isEmpty)
        }
    }

    @Test func blockingTwiceChangesNothingAndUnblockingRestoresNothing() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            try await stack.befriendByRPC(anna, ben)
            try await stack.blockByRPC(anna, ben)
            let first = try await stack.social.listBlockedUsers(.init(), options: anna.bearer)
            stack.clock.advance(seconds: 60)
            try await stack.blockByRPC(anna, ben)
            let blockedAt = try await stack.pool.query("SELECT since FROM social.blocks").decode(Date.self)
            #expect(blockedAt.count == 1)
            #expect(try await stack.social.listBlockedUsers(.init(), options: anna.bearer) == first)
            for _ in 0..<2 {
                _ = try await stack.social.unblockUser(.init(userID: ben.id), options: anna.bearer)
            }
            #expect(try await stack.relationship(anna, ben) == Relationship())
            #expect(try await stack.social.listBlockedUsers(.init(), options: anna.bearer).users.isEmpty)
            try await stack.ask(ben, anna)
        }
    }

    @Test func blockingYourselfOrSomeoneUnknownIsRefused() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let yourself = await rpcError { try await stack.blockByRPC(anna, anna) }
            #expect(yourself?.code == .invalidArgument && yourself?.reason == "SELF_NOT_ALLOWED")
            let unknown = await rpcError {
                try await stack.social.blockUser(
                    .init(userID: UUIDv7.generate(at: stack.clock.now)), options: anna.bearer)
            }
            #expect(unknown?.code == .notFound && unknown?.reason == "USER_NOT_FOUND")
            #expect(try await stack.pool.query("SELECT 1 FROM social.blocks").count == 0)
        }
    }
}
