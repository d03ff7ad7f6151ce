import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// `SharesBabyProfile`, gamification's check before showing a user's activity counters to another.
@Suite struct SharesBabyProfileRPCTests {
    @Test func membersOfOneActiveProfileShareItEitherWayRoundAndNobodyElse() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let grandma = try await stack.register("grandma", age: 70)
            let aunt = try await stack.register("aunt", age: 40)
            let stranger = try await stack.register("stranger", age: 30)
            _ = try await stack.babyProfile(ownedBy: mum, coOwner: dad, followers: [grandma])
            let closed = try await stack.babyProfile(ownedBy: aunt, followers: [stranger])
            try await stack.pool.query(
                "UPDATE family.baby_profiles SET active = false WHERE profile_id = \(closed)::uuid")
            let service = try await stack.serviceBearer()
            func shared(_ user: TestUser, _ other: TestUser) async throws -> Bool {
                try await stack.family.sharesBabyProfile(
                    .init(userID: user.id, otherUserID: other.id), options: service
                ).shared
            }
            for (user, other) in [(mum, dad), (dad, grandma), (grandma, mum), (mum, mum)] {
                #expect(try await shared(user, other), "\(user.username) and \(other.username)")
            }
            for (user, other) in [(mum, stranger), (stranger, grandma), (aunt, stranger), (aunt, aunt)] {
                #expect(try await !shared(user, other), "\(user.username) and \(other.username)")
            }
        }
    }

    @Test func aPersonIsRefusedAndMalformedIdsAreEachNamed() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let person = await rpcError {
                try await stack.family.sharesBabyProfile(
                    .init(userID: mum.id, otherUserID: mum.id), options: mum.bearer)
            }
            #expect(person?.code == .permissionDenied)
            let malformed = await rpcError {
                try await stack.family.sharesBabyProfile(
                    .init(userID: "nope", otherUserID: ""), options: try await stack.serviceBearer())
            }
            #expect(malformed?.code == .invalidArgument)
            #expect(malformed?.badFields.sorted() == ["other_user_id", "user_id"])
        }
    }
}
