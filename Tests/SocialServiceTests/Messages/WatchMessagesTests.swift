import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `WatchMessages`: what the caller receives, sent through any instance, each once and in order, and
/// nothing else; the drain ends it.
@Suite struct WatchMessagesTests {
    @Test func streamsOnEveryInstanceDeliverWhatTheCallerReceivesThroughAnotherOnceAndInOrder() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let cat = try await stack.register("cat", age: 32)
            try await stack.withSecondInstance { other in
                let here = try await stack.watchMessages(of: bob, through: stack.social, warmingUpWith: ann)
                let there = try await stack.watchMessages(of: bob, through: other, warmingUpWith: ann)
                try await stack.send("not for bob", from: ann, to: cat, through: other)
                try await stack.send("from bob", from: bob, to: ann, through: other)
                var sent: [String] = []
                for index in 0..<5 {
                    sent.append(
                        try await stack.send("hello \(index)", from: ann, to: bob, through: other).messageID)
                }
                for watch in [here, there] {
                    #expect(try await watch.first(5).map(\.messageID) == sent)
                    #expect(try await watch.first(5).allSatisfy { $0.sender?.username == "ann" })
                }
                // Nothing more came: the next message is the very next each stream sends.
                let last = try await stack.send("last", from: ann, to: bob, through: other).messageID
                for watch in [here, there] {
                    #expect(try await watch.first(6).last?.messageID == last)
                }
                await here.stop()
                await there.stop()
            }
        }
    }

    @Test func aServiceHasNoStreamAndTheDrainEndsAStream() async throws {
        try await SocialTestStack.with { stack in
            var options = try await stack.serviceBearer()
            options.timeout = .seconds(10)
            let service = await rpcError {
                for try await _ in stack.social.watchMessages(.init(), options: options) {}
            }
            #expect(service?.reason == "ACCOUNT_REQUIRED")
            let messages = Messages(context: stack.context)
            let watching = Task { try await messages.watch(for: UserID.generate(at: Date())) { _ in } }
            // The stream subscribed and learned where to begin before the drain.
            try await eventually("the stream started") { messages.bell.streamsStarted == 1 }
            await messages.bell.close()
            try await watching.value
            try await messages.watch(for: UserID.generate(at: Date())) { _ in
                Issue.record("a closed bell streamed")
            }
        }
    }
}
