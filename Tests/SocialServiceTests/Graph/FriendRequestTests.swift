@testable import ServiceTestSupport
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `SendFriendRequest`: whom a request may go to, what a second one answers, and two people asking each other.
@Suite struct FriendRequestTests {
    @Test func aRequestByUsernameInAnyCaseWaitsInBothSidesLists() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            let sent = try await stack.social.sendFriendRequest(
                .init(to: .init(ref: .username("BEN"))), options: anna.bearer)
            guard case .request(let request) = sent.outcome else { throw TestFailure("no pending request") }
            #expect(request.sender == Kindred_Social_V1_Person(userID: anna.id, username: "anna"))
            #expect(request.recipient == Kindred_Social_V1_Person(userID: ben.id, username: "ben"))
            let incoming = try await stack.social.listFriendRequests(
                .init(direction: .incoming), options: ben.bearer)
            let outgoing = try await stack.social.listFriendRequests(
                .init(direction: .outgoing), options: anna.bearer)
            #expect(incoming.requests == [request])
            #expect(outgoing.requests == [request])
            #expect(try await stack.relationship(anna, ben).friends == false)
        }
    }

    /// Regression: a clock reading between two microseconds was rounded one way into the table and the other
    /// way into the answer, so a request answered a time 1 µs off the one its lists showed.
    @Test func aRequestAnswersTheTimeItsListsShowWhateverFractionOfAMicrosecondTheClockReads() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            for offset in stride(from: 0.000_000_3, to: 0.000_010, by: 0.000_001_1) {
                stack.clock.set("2026-11-22T10:00:00Z")
                stack.clock.advance(seconds: 0.123_456 + offset)
                let sent = try await stack.social.sendFriendRequest(
                    .init(to: .init(ref: .userID(ben.id))), options: anna.bearer)
                guard case .request(let request) = sent.outcome else {
                    throw TestFailure("no pending request")
                }
                let listed = try await stack.social.listFriendRequests(
                    .init(direction: .incoming), options: ben.bearer)
                #expect(listed.requests.map(\.sentAt) == [request.sentAt], "offset \(offset)")
                _ = try await stack.social.cancelFriendRequest(
                    .init(requestID: request.requestID), options: anna.bearer)
            }
        }
    }

    @Test func askingTwiceIsAlreadyExistsAndAskingAFriendIsAlreadyFriends() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            try await stack.ask(anna, ben)
            let twice = await rpcError { try await stack.ask(anna, ben) }
            #expect(twice?.code == .alreadyExists && twice?.reason == "FRIEND_REQUEST_EXISTS")
            try await stack.befriendByRPC(anna, cleo)
            for (user, other) in [(anna, cleo), (cleo, anna)] {
                let friends = await rpcError { try await stack.ask(user, other) }
                #expect(friends?.code == .alreadyExists && friends?.reason == "ALREADY_FRIENDS")
            }
            #expect(try await stack.pendingRequests(anna, ben) == 1)
        }
    }

    @Test func askingSomeoneWhoAskedFirstAcceptsTheirRequest() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben) = try await stack.adults("anna", "ben").pair
            try await stack.ask(anna, ben)
            guard case .friend(let friend) = try await stack.ask(ben, anna) else {
                throw TestFailure("asking back made no friendship")
            }
            #expect(friend.person == Kindred_Social_V1_Person(userID: anna.id, username: "anna"))
            #expect(try await stack.relationship(anna, ben).friends)
            #expect(try await stack.relationship(ben, anna).friends)
            #expect(try await stack.pendingRequests(anna, ben) == 0)
        }
    }

    @Test func twoPeopleAskingEachOtherAtTheSameMomentBecomeFriendsWithNoRequestLeft() async throws {
        try await SocialTestStack.with { stack in
            let users = try await stack.adults("anna", "ben", "cleo", "dan", "eve", "finn")
            for (user, other) in [(users[0], users[1]), (users[2], users[3]), (users[4], users[5])] {
                async let first = stack.ask(user, other)
                async let second = stack.ask(other, user)
                let outcomes = [try await first, try await second]
                let friendships = outcomes.filter { if case .friend = $0 { true } else { false } }
                #expect(friendships.count == 1)
                #expect(try await stack.relationship(user, other).friends)
                #expect(try await stack.relationship(other, user).friends)
                #expect(try await stack.pendingRequests(user, other) == 0)
            }
        }
    }

    @Test func askingYourselfAStrangerOrAMalformedNameIsRefusedNamingTheField() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let refs: [(Kindred_Social_V1_UserRef?, StatusCode, String?, [String])] = [
                (.init(ref: .userID(anna.id.uppercased())), .invalidArgument, "SELF_NOT_ALLOWED", []),
                (.init(ref: .username("Anna")), .invalidArgument, "SELF_NOT_ALLOWED", []),
                (.init(ref: .userID(UUIDv7.generate(at: stack.clock.now))), .notFound, "USER_NOT_FOUND", []),
                (.init(ref: .username("nobody_here")), .notFound, "USER_NOT_FOUND", []),
                (.init(ref: .userID("42")), .invalidArgument, nil, ["to.user_id"]),
                (.init(ref: .username("no-hyphens")), .invalidArgument, nil, ["to.username"]),
                (nil, .invalidArgument, nil, ["to"]),
            ]
            for (ref, code, reason, fields) in refs {
                let refusal = await rpcError {
                    try await stack.social.sendFriendRequest(.init(to: ref), options: anna.bearer)
                }
                #expect(refusal?.code == code, "\(String(describing: ref))")
                #expect(refusal?.reason == reason)
                #expect(refusal?.badFields == fields)
            }
        }
    }

    @Test func aServiceHasNoFriendsToAskFor() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let refusal = await rpcError {
                try await stack.social.sendFriendRequest(
                    .init(to: .init(ref: .userID(anna.id))), options: try await stack.serviceBearer())
            }
            #expect(refusal?.code == .permissionDenied && refusal?.reason == "ACCOUNT_REQUIRED")
        }
    }
}
