import KindredAPI
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Votes are secret until the baby's arrival: no caller learns a vote or a tally before it.
@Suite struct BabyVoteSecrecyTests {
    @Test func beforeTheArrivalNoOwnerAdminOrVoterReadsAVoteOrATally() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let aunt = try await stack.register("aunt")
            let root = try await stack.register("root")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, aunt, root])
            let admin = try await stack.adminBearer(root)
            let readers = [mum.bearer, grandma.bearer, aunt.bearer, admin]
            var beforeAnyVote: [String?] = []
            for reader in readers {
                beforeAnyVote.append(
                    await rpcError { try await stack.results(of: profile, options: reader) }?.message)
            }

            let cast = try await stack.vote(.birthDate(day(2027, 3, 14)), on: profile, as: grandma)
            try await stack.vote(.gender(.girl), on: profile, as: grandma)
            try await stack.vote(.name("Alba"), on: profile, as: aunt)
            try await stack.vote(.gender(.boy), on: profile, as: root)

            #expect(try cast.serializedBytes().isEmpty, "casting a vote answers nothing about it")
            for (reader, before) in zip(readers, beforeAnyVote) {
                let refused = await rpcError { try await stack.results(of: profile, options: reader) }
                #expect(refused?.code == .failedPrecondition && refused?.reason == "VOTES_NOT_REVEALED")
                #expect(refused?.message == before, "the refusal is the same whether anyone voted or not")
                #expect(refused?.metadata.isEmpty == true)
            }
        }
    }

    @Test func anAdminWhoIsNotAMemberIsToldTheProfileDoesNotExist() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let admin = try await stack.adminBearer(try await stack.register("root"))
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.vote(.gender(.girl), on: profile, as: grandma)
            try await stack.withFamilyEvents {
                try await stack.announceArrival(of: profile, born: day(2027, 3, 1))
                try await stack.awaitReveal(of: profile)
            }
            let unknown = try await stack.babyProfile(ownedBy: try await stack.register("other"))
            let refused = await rpcError { try await stack.results(of: profile, options: admin) }
            let unknownRefused = await rpcError { try await stack.results(of: unknown, options: admin) }
            #expect(refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND")
            #expect(refused?.message == unknownRefused?.message)
        }
    }
}
