import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `ListConversations` and `ListMessages`: each person's own conversations in order, pages that continue
/// where they ended, nothing for a third person, and reported messages withheld from everyone.
@Suite struct ConversationReadTests {
    @Test func conversationsListTheMostRecentlyActiveFirstPageByPage() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let (bob, cat, dan) = (
                try await stack.register("bob", age: 31), try await stack.register("cat", age: 32),
                try await stack.register("dan", age: 33)
            )
            for (other, text) in [(bob, "to bob"), (cat, "to cat"), (dan, "to dan")] {
                try await stack.send(text, from: ann, to: other)
                stack.clock.advance(seconds: 1)
            }
            try await stack.send("bob again", from: bob, to: ann)
            let first = try await stack.conversations(of: ann, size: 2)
            #expect(first.conversations.map { $0.other?.username } == ["bob", "dan"])
            #expect(first.conversations[0].lastMessage?.text == "bob again")
            #expect(first.conversations[0].lastMessage?.sender?.username == "bob")
            let token = try #require(first.page?.nextPageToken)
            let second = try await stack.conversations(of: ann, size: 2, token: token)
            #expect(second.conversations.map { $0.other?.username } == ["cat"])
            #expect(second.page?.nextPageToken == "")
            #expect(
                try await stack.conversations(of: bob).conversations.map { $0.other?.username } == ["ann"])
            let forged = await rpcError { try await stack.conversations(of: ann, token: "not-a-token") }
            #expect(forged?.badFields == ["page.page_token"])
        }
    }

    @Test func messagesListNewestFirstWithATokenBoundToItsConversation() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let cat = try await stack.register("cat", age: 32)
            for (index, sender) in [ann, bob, ann].enumerated() {
                try await stack.send("message \(index)", from: sender, to: sender.id == ann.id ? bob : ann)
                stack.clock.advance(seconds: 1)
            }
            let conversation = try await stack.send("to cat", from: ann, to: cat).conversationID
            let withBob = try #require(
                try await stack.conversations(of: bob).conversations.first?.conversationID)
            let first = try await stack.messages(in: withBob, as: bob, size: 2)
            #expect(first.messages.map(\.text) == ["message 2", "message 1"])
            let token = try #require(first.page?.nextPageToken)
            let second = try await stack.messages(in: withBob, as: ann, size: 2, token: token)
            #expect(second.messages.map(\.text) == ["message 0"])
            let elsewhere = await rpcError {
                try await stack.messages(in: conversation, as: ann, token: token)
            }
            #expect(elsewhere?.badFields == ["page.page_token"])
        }
    }

    @Test func aThirdPersonCannotReadSomeoneElsesConversationOrTellItExists() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let eve = try await stack.register("eve", age: 32)
            let conversation = try await stack.send("our secret", from: ann, to: bob).conversationID
            let theirs = await rpcError { try await stack.messages(in: conversation, as: eve) }
            let nobodys = await rpcError {
                try await stack.messages(in: UUIDv7.generate(at: Date()), as: eve)
            }
            #expect(theirs?.code == .notFound && theirs?.reason == "CONVERSATION_NOT_FOUND")
            #expect(theirs?.message == nobodys?.message && nobodys?.reason == theirs?.reason)
            #expect(try await stack.conversations(of: eve).conversations.isEmpty)
            let malformed = await rpcError { try await stack.messages(in: "conversation-1", as: eve) }
            #expect(malformed?.badFields == ["conversation_id"])
        }
    }

    // Who may read is found from a message of the conversation and the caller's own row: someone who talks
    // with the sender and the recipient has rows with both, but they carry the ids of their own conversations.
    @Test func someoneWhoTalksWithBothPartiesStillCannotReadTheirConversation() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let eve = try await stack.register("eve", age: 32)
            let theirs = try await stack.send("our secret", from: ann, to: bob).conversationID
            let withAnn = try await stack.send("hi ann", from: eve, to: ann).conversationID
            let withBob = try await stack.send("hi eve", from: bob, to: eve).conversationID
            let refused = await rpcError { try await stack.messages(in: theirs, as: eve) }
            #expect(refused?.code == .notFound && refused?.reason == "CONVERSATION_NOT_FOUND")
            #expect(try await stack.messages(in: withAnn, as: eve).messages.map(\.text) == ["hi ann"])
            #expect(try await stack.messages(in: withBob, as: eve).messages.map(\.text) == ["hi eve"])
            #expect(try await stack.messages(in: theirs, as: bob).messages.map(\.text) == ["our secret"])
        }
    }

    @Test func aMessageReportedByEnoughPeopleIsWithheldFromEveryone() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let fine = try await stack.send("hello", from: ann, to: bob)
            stack.clock.advance(seconds: 1)
            let rude = try await stack.send("something rude", from: ann, to: bob)
            try await stack.seedReports(ofMessage: fine.messageID, reporters: ReportTally.filterThreshold - 1)
            try await stack.seedReports(ofMessage: rude.messageID, reporters: ReportTally.filterThreshold)
            for user in [ann, bob] {
                let listed = try await stack.messages(in: rude.conversationID, as: user).messages
                #expect(listed.map(\.text) == ["", "hello"])
                #expect(listed.map(\.filtered) == [true, false])
                let last = try await stack.conversations(of: user).conversations.first?.lastMessage
                #expect(last?.messageID == rude.messageID && last?.filtered == true && last?.text == "")
            }
        }
    }
}
