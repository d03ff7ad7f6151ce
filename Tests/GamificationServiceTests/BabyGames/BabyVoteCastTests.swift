import KindredAPI
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Who may vote, and what a vote must be.
@Suite struct BabyVoteCastTests {
    @Test func ownersAreRefusedAndStrangersAreToldTheProfileDoesNotExist() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let stranger = try await stack.register("stranger")
            let profile = try await stack.babyProfile(ownedBy: mum)
            let owner = await rpcError { try await stack.vote(.gender(.girl), on: profile, as: mum) }
            #expect(owner?.code == .permissionDenied && owner?.reason == "BABY_PROFILE_FOLLOWERS_ONLY")
            let strangers = await rpcError { try await stack.vote(.gender(.girl), on: profile, as: stranger) }
            let unknown = await rpcError {
                try await stack.vote(.gender(.girl), on: "0190a0a0-0000-7000-8000-000000000000", as: stranger)
            }
            #expect(strangers?.code == .notFound && strangers?.reason == "BABY_PROFILE_NOT_FOUND")
            #expect(strangers?.message == unknown?.message)
        }
    }

    @Test func aBadVoteNamesItsField() async throws {
        let cases: [(Kindred_Gamification_V1_CastBabyVoteRequest.OneOf_Vote?, String)] = [
            (.birthDate(day(2027, 2, 30)), "birth_date"),
            (.gender(.unspecified), "gender"),
            (.name("   "), "name"),
            (.name(String(repeating: "a", count: 51)), "name"),
            (.name("Al\u{7}ba"), "name"),
            (nil, "vote"),
        ]
        try await GamificationTestStack.with { stack in
            let grandma = try await stack.register("grandma", age: 70)
            for (vote, field) in cases {
                let refused = await rpcError {
                    try await stack.gamification.castBabyVote(
                        .init(profileID: "not-an-id", vote: vote), options: grandma.bearer)
                }
                #expect(refused?.code == .invalidArgument)
                #expect(refused?.badFields == ["profile_id", field], "\(field)")
            }
        }
    }
}
