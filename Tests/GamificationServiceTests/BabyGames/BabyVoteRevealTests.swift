import KindredAPI
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Family's `baby.arrived` reveals the votes to the profile's members, and closes them.
@Suite struct BabyVoteRevealTests {
    @Test func theArrivalRevealsTalliesOwnVotesAndTheClosestDateGuesses() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let aunt = try await stack.register("aunt")
            let uncle = try await stack.register("uncle")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, aunt, uncle])
            try await stack.vote(.birthDate(day(2027, 3, 1)), on: profile, as: grandma)
            try await stack.vote(.birthDate(day(2027, 3, 20)), on: profile, as: grandma)  // changed her mind
            try await stack.vote(.birthDate(day(2027, 3, 9)), on: profile, as: aunt)
            try await stack.vote(.birthDate(day(2027, 3, 12)), on: profile, as: uncle)
            try await stack.vote(.gender(.girl), on: profile, as: grandma)
            try await stack.vote(.gender(.girl), on: profile, as: aunt)
            try await stack.vote(.gender(.boy), on: profile, as: uncle)
            try await stack.vote(.name("Zoë Anne"), on: profile, as: grandma)
            stack.clock.advance(seconds: 1)  // the first spelling of a name is the one its tally shows
            try await stack.vote(.name(" zoe  ANNE"), on: profile, as: aunt)
            try await stack.vote(.name("Luca"), on: profile, as: uncle)

            try await stack.withFamilyEvents {
                try await stack.announceArrival(of: profile, born: day(2027, 3, 10), name: "Zoe", gender: 1)
                try await stack.awaitReveal(of: profile)
            }

            let seen = try await stack.results(of: profile, options: aunt.bearer)
            #expect(seen.arrival?.birthDate == day(2027, 3, 10) && seen.arrival?.name == "Zoe")
            #expect(seen.arrival?.gender == 1)
            #expect(seen.birthDateTallies.map(\.votes) == [1, 1, 1])
            #expect(
                seen.birthDateTallies.map(\.birthDate) == [
                    day(2027, 3, 9), day(2027, 3, 12), day(2027, 3, 20),
                ])
            #expect(seen.genderTallies.map { [$0.gender.rawValue, $0.votes] } == [[1, 2], [2, 1]])
            #expect(seen.nameTallies.map(\.name) == ["Zoë Anne", "Luca"])
            #expect(seen.nameTallies.map(\.votes) == [2, 1])
            #expect(seen.myVotes == .init(birthDate: day(2027, 3, 9), gender: .girl, name: "zoe  ANNE"))
            #expect(seen.closestDateGuesses.map(\.userID) == [aunt.id, uncle.id, grandma.id])
            #expect(seen.closestDateGuesses.map(\.daysOff) == [1, 2, 10])

            let owners = try await stack.results(of: profile, options: mum.bearer)
            #expect(owners.myVotes == .init() && owners.nameTallies == seen.nameTallies)
        }
    }

    @Test func afterTheArrivalVotingIsClosedAndAReplayedEventChangesNothing() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum")
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.vote(.gender(.boy), on: profile, as: grandma)
            try await stack.withFamilyEvents {
                try await stack.announceArrival(of: profile, born: day(2027, 3, 10), name: "Ada")
                try await stack.awaitReveal(of: profile)
                let first = try await stack.results(of: profile, options: grandma.bearer)
                try await stack.announceArrival(of: profile, born: day(2027, 4, 1), name: "Other")
                let other = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
                try await stack.announceArrival(of: other, born: day(2027, 4, 1))
                try await stack.awaitReveal(of: other)  // the replay, before it, has been handled too
                #expect(try await stack.results(of: profile, options: grandma.bearer) == first)
            }
            let closed = await rpcError { try await stack.vote(.gender(.girl), on: profile, as: grandma) }
            #expect(closed?.code == .failedPrecondition && closed?.reason == "VOTING_CLOSED")
            let seen = try await stack.results(of: profile, options: grandma.bearer)
            #expect(seen.genderTallies.map(\.gender) == [.boy] && seen.myVotes?.gender == .boy)
        }
    }
}
