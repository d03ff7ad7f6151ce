import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// What every part of social stands on: the people directory, family's controls as social reads them, and
/// the relationship read.
@Suite struct SocialTestStackTests {
    @Test func theDirectoryLearnsAPersonFromIdentityOnceAndFindsThemByUsernameInAnyCase() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let people = stack.context.people
            #expect(
                try await people.person(maya.userID) == Person(id: maya.userID, username: "maya", minor: true)
            )
            #expect(try await people.person(username: "MAYA").id == maya.userID)
            let remembered = try await stack.pool.query("SELECT count(*) FROM social.people")[0].decode(
                Int.self)
            #expect(remembered == 1)
        }
    }

    @Test func aStrangerUnknownToIdentityIsUserNotFoundByIdAndByUsername() async throws {
        try await SocialTestStack.with { stack in
            let people = stack.context.people
            for lookup in [
                { _ = try await people.person(UserID.generate(at: Date())) },
                { _ = try await people.person(username: "nobody_here") },
            ] as [() async throws -> Void] {
                let error = try await #require(throws: RPCError.self) { try await lookup() }
                #expect(error.code == .notFound)
                #expect(error.reason == "USER_NOT_FOUND")
            }
        }
    }

    @Test func controlsAreReadAfreshSoAGuardiansChangeShowsOnTheNextRead() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let adult = try await stack.register("adam", age: 30)
            let family = stack.context.family
            #expect(try await family.controls(of: maya.userID).messagingFollowedOnly)
            #expect(try await family.controls(of: adult.userID).active == false)
            try await stack.setControls(of: maya, messagingFollowedOnly: false)
            #expect(try await family.controls(of: maya.userID).messagingFollowedOnly == false)
        }
    }

    @Test func aRelationshipReadsEveryEdgeBetweenTwoPeopleFromEitherSide() async throws {
        try await SocialTestStack.with { stack in
            let (me, other) = (UserID.generate(at: Date()), UserID.generate(at: Date()))
            let now = Date()
            try await stack.pool.query(
                "INSERT INTO social.follows VALUES (\(me)::uuid, \(other)::uuid, \(now))")
            try await stack.pool.query(
                "INSERT INTO social.blocks VALUES (\(other)::uuid, \(me)::uuid, \(now))")
            let mine = try await RelationshipStore.between(me, other, on: stack.pool)
            #expect(mine == Relationship(blockedBy: true, follows: true))
            let theirs = try await RelationshipStore.between(other, me, on: stack.pool)
            #expect(theirs == Relationship(blocks: true, followedBy: true))
            #expect(throws: RPCError.self) { try mine.requireNoBlock() }
        }
    }
}
