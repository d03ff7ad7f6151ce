import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `SendMessage` as a client tries to misuse it: bad fields, messaging oneself or nobody, a service token,
/// and retries, one after another or all at once.
@Suite struct SendMessageTests {
    @Test func aSendNamesEveryBadFieldAndCountsCharactersNotBytes() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let everything = await rpcError {
                try await stack.social.sendMessage(
                    .init(requestID: "", recipientUserID: "bob", text: String(repeating: "a", count: 2_001)),
                    options: ann.bearer)
            }
            #expect(everything?.code == .invalidArgument)
            #expect(everything?.badFields == ["request_id", "recipient_user_id", "text"])
            let blank = await rpcError { try await stack.send(" \n\t ", from: ann, to: bob) }
            #expect(blank?.badFields == ["text"])
            let longKey = await rpcError {
                try await stack.send("hi", from: ann, to: bob, requestID: String(repeating: "k", count: 101))
            }
            #expect(longKey?.badFields == ["request_id"])
            // 2,000 characters of 8 bytes each: the limit is on characters.
            let thumbs = String(repeating: "👍🏽", count: 2_000)
            #expect(try await stack.send(thumbs, from: ann, to: bob).text == thumbs)
        }
    }

    @Test func nobodyMessagesThemselvesNobodyOrAsAService() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let yourself = await rpcError { try await stack.send("hi me", from: ann, to: ann) }
            #expect(yourself?.code == .invalidArgument && yourself?.reason == "SELF_NOT_ALLOWED")
            let nobody = await rpcError {
                try await stack.social.sendMessage(
                    .init(requestID: "r", recipientUserID: UUIDv7.generate(at: Date()), text: "hello?"),
                    options: ann.bearer)
            }
            #expect(nobody?.code == .notFound && nobody?.reason == "USER_NOT_FOUND")
            let service = await rpcError {
                try await stack.social.sendMessage(
                    .init(requestID: "r", recipientUserID: ann.id, text: "from a service"),
                    options: try await stack.serviceBearer())
            }
            #expect(service?.code == .permissionDenied && service?.reason == "ACCOUNT_REQUIRED")
        }
    }

    @Test func aRetryReturnsTheFirstMessageAndWritesNothingTwiceEvenWhenRetriesRace() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let first = try await stack.send("once", from: ann, to: bob, requestID: "send-1")
            let retried = try await stack.send("once", from: ann, to: bob, requestID: "send-1")
            #expect(retried == first)
            let racing = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await stack.send("twice?", from: ann, to: bob, requestID: "send-2").messageID
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(racing.count == 1)
            let stored = try await stack.pool.query("SELECT count(*) FROM social.messages")[0].decode(
                Int.self)
            let numbered = try await stack.pool.query(
                "SELECT last_seq FROM social.message_inboxes WHERE user_id = \(bob.id)::uuid")[0].decode(
                    Int64.self)
            #expect(stored == 2 && numbered == 2)
            let reused = await rpcError {
                try await stack.send("something else", from: ann, to: bob, requestID: "send-1")
            }
            #expect(reused?.code == .invalidArgument && reused?.reason == "REQUEST_ID_REUSED")
        }
    }
}
