import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// `WatchMessages` at a cursor: a client that reconnects with the cursor of the last message it got receives
/// exactly what it missed, then what comes next; a cursor it could not have got is refused.
@Suite struct WatchMessagesResumeTests {
    @Test func aStreamReopenedAtTheLastCursorMidConversationMissesNothingAndRepeatsNothing() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            try await stack.send("before the stream", from: ann, to: bob)
            let start = try await MessageStore.inboxPosition(of: bob.userID, on: stack.pool)
            let beforeDrop = try await stack.receiving(2, by: bob, after: start) {
                try await stack.send("one", from: ann, to: bob)
                try await stack.send("a reply bob's stream does not carry", from: bob, to: ann)
                try await stack.send("two", from: ann, to: bob)
            }
            #expect(beforeDrop.map(\.text) == ["one", "two"])
            #expect(beforeDrop[0].cursor > start && beforeDrop[1].cursor > beforeDrop[0].cursor)

            try await stack.send("three", from: ann, to: bob)
            try await stack.send("another reply", from: bob, to: ann)
            try await stack.send("four", from: ann, to: bob)
            var resumed = stack.inbox(of: bob, after: beforeDrop[1].cursor)
            let missed = [try await resumed.next(), try await resumed.next()].compactMap { $0 }
            #expect(missed.map(\.text) == ["three", "four"])
            try await stack.send("five", from: ann, to: bob)
            let next = try await resumed.next()
            #expect(next?.text == "five")
            let last = beforeDrop[1].cursor
            #expect(missed.map(\.cursor) + [next?.cursor ?? 0] == [last + 1, last + 2, last + 3])
        }
    }

    @Test func aNegativeCursorOrOnePastTheNewestMessageReceivedIsInvalid() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            try await stack.send("hello", from: ann, to: bob)
            for cursor: Int64 in [-1, 2] {
                var stream = stack.inbox(of: bob, after: cursor)
                let refused = await rpcError { try await stream.next() }
                #expect(refused?.code == .invalidArgument && refused?.badFields == ["after_cursor"])
            }
            var stream = stack.inbox(of: bob, after: 1)
            try await stack.send("after the newest", from: ann, to: bob)
            #expect(try await stream.next()?.text == "after the newest")
        }
    }
}

extension SocialTestStack {
    /// The first `count` messages of a `WatchMessages` stream of `user`'s opened after `cursor` while `body`
    /// sends them (each arrives as the stream catches up or live, whichever comes first); the stream is closed
    /// (its call cancelled) on return.
    func receiving(
        _ count: Int, by user: TestUser, after cursor: Int64, while body: () async throws -> Void
    ) async throws -> [Kindred_Social_V1_Message] {
        async let received = { () async throws -> [Kindred_Social_V1_Message] in
            var stream = inbox(of: user, after: cursor)
            var received: [Kindred_Social_V1_Message] = []
            while received.count < count, let message = try await stream.next() { received.append(message) }
            return received
        }()
        try await body()
        return try await received
    }

    /// `user`'s `WatchMessages` after `cursor`, read one message at a time; the call starts with the first
    /// read and is cancelled when the iterator is dropped.
    func inbox(of user: TestUser, after cursor: Int64)
        -> ClientResponseStream<Kindred_Social_V1_Message>
        .AsyncIterator
    {
        var options = user.bearer
        options.timeout = .seconds(30)
        return social.watchMessages(.init(afterCursor: cursor), options: options).makeAsyncIterator()
    }
}
