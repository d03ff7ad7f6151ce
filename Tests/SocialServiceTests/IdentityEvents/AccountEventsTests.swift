import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredPostgres
import KindredRuntime
import KindredTestSupport
@testable import SocialService
import Testing

/// Identity's account events as social applies them: a deletion takes the user's social life and nobody
/// else's; coming of age ends being a minor here.
@Suite struct AccountEventsTests {
    @Test func deletingAnAccountTakesItsGraphConversationsAndEventsAndLeavesEveryoneElsesWhole() async throws
    {
        try await SocialTestStack.with { stack in
            let (ann, bob, cat) = (
                try await stack.register("ann", age: 30), try await stack.register("bob", age: 31),
                try await stack.register("cat", age: 32)
            )
            let rows = SocialRows(pool: stack.pool)
            try await rows.befriend(ann.id, bob.id)
            try await rows.befriend(bob.id, cat.id)
            try await rows.follow(ann.id, bob.id)
            try await rows.follow(cat.id, ann.id)
            try await rows.block(ann.id, cat.id)
            try await rows.converse(ann.id, bob.id)
            try await rows.converse(bob.id, cat.id)
            try await rows.converse(cat.id, ann.id)
            let annsEvent = try await rows.event(by: ann.id, attendedBy: [bob.id])
            let bobsEvent = try await rows.event(by: bob.id, attendedBy: [ann.id, cat.id])

            let consumer = AccountEvents.consumer(context: stack.context)
            let consuming = Task { await consumer.run() }
            defer { consuming.cancel() }
            _ = try await stack.base.identity.deleteAccount(
                .init(password: ann.password), options: ann.bearer)
            try await eventually("social forgot ann") { try await rows.mentions(ann.id) == 0 }

            #expect(try await rows.mentions(bob.id) > 0)
            #expect(try await rows.count("SELECT count(*) FROM social.friendships") == 2)
            #expect(try await rows.count("SELECT count(*) FROM social.messages") == 1)
            #expect(try await rows.count("SELECT count(*) FROM social.conversations") == 2)
            #expect(
                try await rows.count("SELECT count(*) FROM social.events WHERE id = \(annsEvent)::uuid") == 0)
            #expect(
                try await rows.count("SELECT attendee_count FROM social.events WHERE id = \(bobsEvent)::uuid")
                    == 1)
            consuming.cancel()
            await consuming.value
        }
    }

    @Test func aUserWhoCameOfAgeIsNoLongerAMinorToSocial() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 17)
            #expect(try await stack.context.people.person(maya.userID).minor)
            var event = Kindred_Identity_V1_Event()
            event.payload = .userCameOfAge(Kindred_Identity_V1_UserCameOfAge(userID: maya.id.uppercased()))
            try await stack.pool.transaction { tx in
                try await AccountEvents(logger: stack.context.logger).apply(event, in: tx)
            }
            #expect(try await stack.context.people.person(maya.userID).minor == false)
        }
    }
}
