import Foundation
import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// Message bodies at rest: sealed in the table (a dump shows no text), read back through the API as sent;
/// bodies from before sealing, or under an older key, sealed again by `keys rotate-data` while messages flow.
@Suite struct MessageBodySealingTests {
    @Test func aMessageIsSealedInTheDatabaseAndItsTextComesBackThroughTheAPI() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let sent = try await stack.send("the spare key is under the blue pot", from: ann, to: bob)

            let listed = try await stack.social.listMessages(
                .init(conversationID: sent.conversationID), options: bob.bearer)
            #expect(listed.messages.map(\.text) == ["the spare key is under the blue pot"])
            let stored = try await stack.pool.query(
                "SELECT body IS NULL, m::text LIKE '%blue pot%' FROM social.messages m WHERE id = \(sent.messageID)::uuid"
            )
            #expect(try stored[0].decode((Bool, Bool).self) == (true, false))
            let dump = try await dataDump(of: "social", on: stack.pool)
            #expect(dump.contains("social.messages") && !dump.contains("blue pot"))
        }
    }

    @Test func rotateDataSealsOldBodiesUnderTheCurrentKeyWhileMessagesAreSent() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let first = try await stack.send("written before sealing", from: ann, to: bob)
            let second = try await stack.send("sealed under the old key", from: ann, to: bob)
            try await stack.pool.query(
                "UPDATE social.messages SET body = 'written before sealing', body_sealed = NULL WHERE id = \(first.messageID)::uuid"
            )
            let resealed = TestDataKeys.old.seal(
                Array("sealed under the old key".utf8), context: "social.messages.body/\(second.messageID)")
            try await stack.pool.query(
                "UPDATE social.messages SET body_sealed = \(resealed)::bytea WHERE id = \(second.messageID)::uuid"
            )

            let rotation = MessageBodyRotation(database: stack.pool, bodies: SocialTestServer.messageBodies)
            async let sealed = rotation.resealAll()
            var during: [String] = []
            for index in 0..<20 {
                during.append(try await stack.send("during \(index)", from: bob, to: ann).text)
            }
            #expect(try await sealed == 2)

            let keys = try await stack.pool.query(
                """
                SELECT count(*) FILTER (WHERE body IS NOT NULL),
                    count(*) FILTER (WHERE convert_from(substring(body_sealed FROM 3 FOR get_byte(body_sealed, 1)), 'UTF8') <> 'test-2')
                FROM social.messages
                """)
            #expect(try keys[0].decode((Int, Int).self) == (0, 0))
            let listed = try await stack.social.listMessages(
                .init(conversationID: first.conversationID, page: .init(pageSize: 100)), options: ann.bearer)
            #expect(
                Set(listed.messages.map(\.text))
                    == Set(["written before sealing", "sealed under the old key"] + during))
            #expect(try await rotation.resealAll() == 0)
        }
    }

    /// `pg_dump` of the social schema's data in the test's database.
}
