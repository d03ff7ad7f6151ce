import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// The first message a minor receives from someone new tells their guardian (`message.new_contact`), once
/// per pair however the first messages race, and never when the minor wrote first or for an adult; first
/// messages crossing end in one conversation.
@Suite struct NewContactTests {
    static func newContacts(_ stack: SocialTestStack) async throws -> [Kindred_Social_V1_MessageNewContact] {
        try await stack.outboxEvents().compactMap { event in
            guard event.type == "message.new_contact", case .messageNewContact(let contact) = event.payload
            else {
                return nil
            }
            return contact
        }
    }

    @Test func aMinorsFirstMessageFromSomeoneNewIsAnnouncedOnceEvenWhenFirstMessagesRace() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let stranger = try await stack.register("stan", age: 40)
            try await stack.setControls(of: mia, messagingFollowedOnly: false)
            let sent = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await stack.send("hi \(index)", from: stranger, to: mia).conversationID
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            let conversation = try #require(sent.first)
            #expect(sent.count == 1)
            try await stack.send("who are you?", from: mia, to: stranger)
            try await stack.send("a friend", from: stranger, to: mia)
            #expect(
                try await Self.newContacts(stack) == [
                    .init(
                        minorUserID: mia.id, senderUserID: stranger.id, senderUsername: "stan",
                        conversationID: conversation)
                ])
        }
    }

    @Test func nothingIsAnnouncedWhenTheMinorWroteFirstOrTheRecipientIsAnAdult() async throws {
        try await SocialTestStack.with { stack in
            let mia = try await stack.register("mia", age: 15)
            let coach = try await stack.register("coach", age: 35)
            let ann = try await stack.register("ann", age: 30)
            try await stack.seedFollow(mia, follows: coach)
            try await stack.send("hello coach", from: mia, to: coach)
            try await stack.send("hello mia", from: coach, to: mia)
            try await stack.send("hello ann", from: coach, to: ann)
            #expect(try await Self.newContacts(stack).isEmpty)
        }
    }

    @Test func firstMessagesCrossingEndInOneConversation() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let conversations = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    let (from, to) = index.isMultiple(of: 2) ? (ann, bob) : (bob, ann)
                    group.addTask { try await stack.send("hi \(index)", from: from, to: to).conversationID }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(conversations.count == 1)
            let rows = try await stack.pool.query(
                "SELECT DISTINCT conversation_id::text FROM social.conversations"
            ).decode(String.self)
            #expect(rows == Array(conversations))
            let listed = try await stack.messages(in: try #require(conversations.first), as: ann)
            #expect(listed.messages.count == 8)
        }
    }
}
