import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// A block between two people, tried from both sides: no message either way whatever the settings, and
/// their conversation gone from both lists and unreadable.
@Suite struct MessageBlockTests {
    @Test func aBlockStopsMessagesBothWaysAndHidesTheConversationFromBoth() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let conversation = try await stack.send("hi bob", from: ann, to: bob).conversationID
            try await stack.seedBlock(ann, blocks: bob)
            let byBlocker = await rpcError { try await stack.send("one more thing", from: ann, to: bob) }
            #expect(byBlocker?.code == .failedPrecondition && byBlocker?.reason == "USER_BLOCKED")
            let byBlocked = await rpcError { try await stack.send("why?", from: bob, to: ann) }
            #expect(byBlocked?.code == .notFound && byBlocked?.reason == "USER_NOT_FOUND")
            for user in [ann, bob] {
                #expect(try await stack.conversations(of: user).conversations.isEmpty)
                let read = await rpcError { try await stack.messages(in: conversation, as: user) }
                #expect(read?.code == .notFound && read?.reason == "CONVERSATION_NOT_FOUND")
            }
        }
    }

    @Test func aBlockRefusesBeforeParentalControlsSoItStopsEvenAnUnrestrictedFollowedContact() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let stranger = try await stack.register("stan", age: 40)
            try await stack.seedBlock(stranger, blocks: mia)
            // Restricted, and blocked: the block answers, as for a missing user.
            let restricted = await rpcError { try await stack.send("hi", from: mia, to: stranger) }
            #expect(restricted?.reason == "USER_NOT_FOUND")
            try await stack.setControls(of: mia, messagingFollowedOnly: false)
            try await stack.seedFollow(mia, follows: stranger)
            let unrestricted = await rpcError { try await stack.send("hi", from: mia, to: stranger) }
            #expect(unrestricted?.reason == "USER_NOT_FOUND")
            let blocker = await rpcError { try await stack.send("hi", from: stranger, to: mia) }
            #expect(blocker?.reason == "USER_BLOCKED")
        }
    }
}
