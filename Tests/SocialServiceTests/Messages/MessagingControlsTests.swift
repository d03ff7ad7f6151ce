import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import SocialService
import Testing

/// `messaging_followed_only`, tried by the restricted minor reaching out and by the stranger reaching in.
/// Every minor the stack registers starts with the restriction on.
@Suite struct MessagingControlsTests {
    static func expectRestricted(_ error: RPCError?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.code == .permissionDenied, sourceLocation: sourceLocation)
        #expect(error?.reason == "PARENTAL_CONTROLS_MESSAGING_RESTRICTED", sourceLocation: sourceLocation)
    }

    @Test func aRestrictedMinorCannotMessageAStrangerUntilTheGuardianLiftsTheRestriction() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let stranger = try await stack.register("stan", age: 40)
            Self.expectRestricted(await rpcError { try await stack.send("hi", from: mia, to: stranger) })
            try await stack.setControls(of: mia, messagingFollowedOnly: false)
            #expect(try await stack.send("hi", from: mia, to: stranger).text == "hi")
            try await stack.setControls(of: mia, messagingFollowedOnly: true)
            Self.expectRestricted(await rpcError { try await stack.send("again", from: mia, to: stranger) })
        }
    }

    @Test func aStrangerCannotMessageARestrictedMinorAndLearnsNothingOfWhoseSettingsRefused() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let stranger = try await stack.register("stan", age: 40)
            let inbound = await rpcError { try await stack.send("hey kid", from: stranger, to: mia) }
            let outbound = await rpcError { try await stack.send("hi", from: mia, to: stranger) }
            Self.expectRestricted(inbound)
            #expect(inbound?.message == outbound?.message)
            // Following the minor does not help: only whom the minor follows counts.
            try await stack.seedFollow(stranger, follows: mia)
            Self.expectRestricted(await rpcError { try await stack.send("hey kid", from: stranger, to: mia) })
            try await stack.setControls(of: mia, messagingFollowedOnly: false)
            #expect(try await stack.send("hello", from: stranger, to: mia).text == "hello")
        }
    }

    @Test func aMinorMessagesSomeoneTheyFollowAndTheReplyIsAllowedOnlyWhileTheyFollow() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let coach = try await stack.register("coach", age: 35)
            try await stack.seedFollow(mia, follows: coach)
            try await stack.send("when is practice?", from: mia, to: coach)
            try await stack.send("at five", from: coach, to: mia)
            try await stack.seedUnfollow(mia, unfollows: coach)
            Self.expectRestricted(
                await rpcError { try await stack.send("and tomorrow", from: coach, to: mia) })
            Self.expectRestricted(await rpcError { try await stack.send("thanks", from: mia, to: coach) })
        }
    }

    @Test func betweenTwoRestrictedMinorsEachMustFollowTheOther() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let leo = try await stack.register("leo", age: 16)
            try await stack.seedFollow(mia, follows: leo)
            Self.expectRestricted(await rpcError { try await stack.send("hi leo", from: mia, to: leo) })
            try await stack.seedFollow(leo, follows: mia)
            #expect(try await stack.send("hi leo", from: mia, to: leo).text == "hi leo")
            #expect(try await stack.send("hi mia", from: leo, to: mia).text == "hi mia")
        }
    }

    // Social cannot reach family here (identity refuses its credentials): only a message the rule could
    // refuse asks, and then fails.
    @Test func familyIsAskedOnlyAboutASideTheRuleCouldRefuse() async throws {
        try await SocialTestStack.with { stack in
            let controls = MessagingControls(
                family: try FamilyGate(
                    familyTarget: stack.base.familyTarget,
                    credentials: try ServiceCredentials(
                        clientID: "unknown_client", clientSecret: String(repeating: "x", count: 48),
                        identityTarget: stack.base.identityTarget)))
            let me = UserID.generate(at: Date())
            let adult = Person(id: UserID.generate(at: Date()), username: "adult", minor: false)
            let minor = Person(id: UserID.generate(at: Date()), username: "minor", minor: true)
            try await controls.requireAllowed(from: me, senderRestricted: false, to: adult, Relationship())
            try await controls.requireAllowed(
                from: me, senderRestricted: true, to: adult, Relationship(follows: true))
            try await controls.requireAllowed(
                from: me, senderRestricted: false, to: minor, Relationship(followedBy: true))
            await #expect(throws: RPCError.self) {
                try await controls.requireAllowed(from: me, senderRestricted: true, to: adult, Relationship())
            }
            await #expect(throws: RPCError.self) {
                try await controls.requireAllowed(
                    from: me, senderRestricted: false, to: minor, Relationship(follows: true))
            }
        }
    }
}
