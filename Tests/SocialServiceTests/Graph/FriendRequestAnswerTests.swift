@testable import ServiceTestSupport
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// Accepting, declining, cancelling and removing: only the side a request or friendship belongs to may end it,
/// and anyone else is told there is no such thing.
@Suite struct FriendRequestAnswerTests {
    @Test func nobodyButTheRecipientAcceptsOrDeclinesAndNobodyButTheSenderCancels() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            let requestID = try await stack.request(anna, ben)
            let attempts: [(String, () async throws -> Void)] = [
                (
                    "a stranger accepts",
                    {
                        _ = try await stack.social.acceptFriendRequest(
                            .init(requestID: requestID), options: cleo.bearer)
                    }
                ),
                (
                    "the sender accepts",
                    {
                        _ = try await stack.social.acceptFriendRequest(
                            .init(requestID: requestID), options: anna.bearer)
                    }
                ),
                (
                    "a stranger declines",
                    {
                        _ = try await stack.social.declineFriendRequest(
                            .init(requestID: requestID), options: cleo.bearer)
                    }
                ),
                (
                    "the sender declines",
                    {
                        _ = try await stack.social.declineFriendRequest(
                            .init(requestID: requestID), options: anna.bearer)
                    }
                ),
                (
                    "the recipient cancels",
                    {
                        _ = try await stack.social.cancelFriendRequest(
                            .init(requestID: requestID), options: ben.bearer)
                    }
                ),
                (
                    "a stranger cancels",
                    {
                        _ = try await stack.social.cancelFriendRequest(
                            .init(requestID: requestID), options: cleo.bearer)
                    }
                ),
                (
                    "no such request",
                    {
                        _ = try await stack.social.acceptFriendRequest(
                            .init(requestID: UUIDv7.generate(at: stack.clock.now)), options: ben.bearer)
                    }
                ),
            ]
            for (attempt, call) in attempts {
                let refusal = await rpcError { try await call() }
                #expect(
                    refusal?.code == .notFound && refusal?.reason == "FRIEND_REQUEST_NOT_FOUND", "\(attempt)")
            }
            #expect(try await stack.pendingRequests(anna, ben) == 1)
            let accepted = try await stack.social.acceptFriendRequest(
                .init(requestID: requestID), options: ben.bearer)
            #expect(accepted.friend?.person == Kindred_Social_V1_Person(userID: anna.id, username: "anna"))
            #expect(try await stack.relationship(anna, ben).friends)
            #expect(try await stack.relationship(ben, anna).friends)
            #expect(try await stack.pendingRequests(anna, ben) == 0)
            let again = await rpcError {
                try await stack.social.acceptFriendRequest(.init(requestID: requestID), options: ben.bearer)
            }
            #expect(again?.reason == "FRIEND_REQUEST_NOT_FOUND")
        }
    }

    @Test func aDeclinedOrCancelledRequestIsGoneAndTheSenderMayAskAgain() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            let declined = try await stack.request(anna, ben)
            _ = try await stack.social.declineFriendRequest(
                .init(requestID: declined.uppercased()), options: ben.bearer)
            #expect(try await stack.pendingRequests(anna, ben) == 0)
            let cancelled = try await stack.request(anna, ben)
            _ = try await stack.social.cancelFriendRequest(.init(requestID: cancelled), options: anna.bearer)
            #expect(try await stack.pendingRequests(anna, ben) == 0)
            #expect(try await stack.relationship(anna, ben).friends == false)
            let malformed = await rpcError {
                try await stack.social.declineFriendRequest(.init(requestID: "42"), options: ben.bearer)
            }
            #expect(malformed?.badFields == ["request_id"])
        }
    }

    @Test func removingAFriendEndsItForBothAndASecondRemovalIsNotFriends() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            try await stack.befriendByRPC(anna, ben)
            _ = try await stack.social.removeFriend(.init(userID: anna.id), options: ben.bearer)
            #expect(try await stack.relationship(anna, ben).friends == false)
            #expect(try await stack.relationship(ben, anna).friends == false)
            let twice = await rpcError {
                try await stack.social.removeFriend(.init(userID: ben.id), options: anna.bearer)
            }
            #expect(twice?.code == .notFound && twice?.reason == "NOT_FRIENDS")
        }
    }

    @Test func friendsAreListedMostRecentFirstWithTheirUsernames() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            try await stack.befriendByRPC(ben, anna)
            stack.clock.advance(seconds: 60)
            try await stack.befriendByRPC(anna, cleo)
            let friends = try await stack.social.listFriends(.init(), options: anna.bearer).friends
            #expect(friends.map(\.person?.username) == ["cleo", "ben"])
            #expect(friends[0].since == stack.clock.now.wholeMicroseconds)
            let bens = try await stack.social.listFriends(.init(), options: ben.bearer).friends
            #expect(bens.map(\.person) == [Kindred_Social_V1_Person(userID: anna.id, username: "anna")])
        }
    }
}
