import KindredHandlers
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// The read behind `WatchMessages`' wake-ups: one statement for every recipient woken together, each read after
/// their own inbox position, blocks applied to each as to one.
@Suite struct InboxBatchReadTests {
    @Test func eachRecipientGetsTheirOwnMessagesAfterTheirPositionAndBlocksStillHide() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let eve = try await stack.register("eve", age: 31)
            let bob = try await stack.register("bob", age: 32)
            let cat = try await stack.register("cat", age: 33)
            let dan = try await stack.register("dan", age: 34)
            try await stack.send("bob 1", from: ann, to: bob)
            let bobRead = try await MessageStore.inboxPosition(of: bob.userID, on: stack.pool)
            try await stack.send("bob 2", from: ann, to: bob)
            try await stack.send("bob 3", from: eve, to: bob)
            try await stack.send("cat 1", from: eve, to: cat)
            try await stack.block(cat, eve)
            try await stack.send("cat 2", from: ann, to: cat)
            let read = try await MessageStore.received(
                after: [bob.userID: bobRead, cat.userID: 0, dan.userID: 0], limit: 5,
                bodies: stack.context.messageBodies, on: stack.pool)
            #expect(Set(read.keys) == [bob.userID, cat.userID])
            #expect(read[bob.userID]?.map(\.message.body) == ["bob 2", "bob 3"])
            #expect(read[cat.userID]?.map(\.message.body) == ["cat 2"])
            #expect(read[bob.userID].map { $0.map(\.cursor) == $0.map(\.cursor).sorted() } == true)
        }
    }
}
