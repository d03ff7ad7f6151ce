@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `GetHome`: the countdown of followed profiles due within 10 days, then recent activity, newest first.
@Suite struct GetHomeTests {
    /// 10:00 UTC, decades from the day of the run: a profile due 3 days later is 2 days 14 hours away, so less
    /// than 3 days.
    static let now = TestClock.farFromToday

    @Test func followersSeeTheCountdownOfProfilesDueWithinTenDaysAndOwnersDoNot() async throws {
        try await FamilyTestStack.with(clock: TestClock(Self.now)) { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            try await stack.name(mum, last: "Lopez")
            let clock = stack.clock
            let soon = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], expectedBirth: clock.midnight(3))
            let named = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], name: "Lily", expectedBirth: clock.midnight(10))
            _ = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], expectedBirth: clock.midnight(11))
            _ = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], expectedBirth: clock.midnight(0))
            _ = try await stack.babyProfile(ownedBy: aunt, expectedBirth: clock.midnight(2))

            let home = try await stack.family.getHome(.init(), options: aunt.bearer)
            #expect(home.countdowns.map(\.profileID) == [soon.description, named.description])
            #expect(home.countdowns.map(\.daysLeft) == [3, 10])
            #expect(
                home.countdowns.map(\.message) == [
                    "Baby Lopez is arriving in less than 3 days!", "Lily is arriving in less than 10 days!",
                ])
            #expect(home.countdowns.first?.expectedBirthDate == clock.date(3))
            let owners = try await stack.family.getHome(.init(), options: mum.bearer)
            #expect(owners.countdowns.isEmpty)
        }
    }

    @Test func theLastDayBeforeTheDueDateIsLessThanOneDay() async throws {
        let lastHalfHour = TestClock(Self.now)
        lastHalfHour.set("\(lastHalfHour.isoDay(0))T23:30:00Z")
        try await FamilyTestStack.with(clock: lastHalfHour) { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            let profile = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], name: "Max", expectedBirth: stack.clock.midnight(1))
            let home = try await stack.family.getHome(
                .init(profileID: profile.description), options: aunt.bearer)
            #expect(home.countdowns.map(\.message) == ["Max is arriving in less than 1 day!"])
        }
    }

    @Test func activityComesNewestFirstAcrossProfilesInPagesWithoutRepeats() async throws {
        try await FamilyTestStack.with(clock: TestClock(Self.now)) { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            let first = try await stack.babyProfile(ownedBy: mum, followers: [aunt])
            let second = try await stack.babyProfile(ownedBy: aunt)
            for index in 0..<7 {
                try await stack.record(
                    .commentAdded, on: index.isMultiple(of: 2) ? first : second, by: aunt, detail: "c\(index)"
                )
            }
            var details: [String] = []
            var token = ""
            repeat {
                let page = try await stack.family.getHome(
                    .init(page: .init(pageSize: 3, pageToken: token)), options: aunt.bearer)
                #expect(page.activity.count <= 3)
                details += page.activity.map(\.detail)
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(details == (0..<7).reversed().map { "c\($0)" })

            let one = try await stack.family.getHome(.init(profileID: first.description), options: mum.bearer)
            #expect(one.activity.map(\.detail) == ["c6", "c4", "c2", "c0"])
            #expect(one.activity.allSatisfy { $0.kind == .commentAdded && $0.actorID == aunt.id })
        }
    }

    /// A page opens each actor's name once (`BabyActivityStore.Entries`): entries by several people, in turns,
    /// each still carry their own actor's name.
    @Test func eachEntryCarriesItsOwnActorsName() async throws {
        try await FamilyTestStack.with(clock: TestClock(Self.now)) { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            let grandad = try await stack.register("grandad", age: 70)
            try await stack.name(mum, first: "Maria", last: "Lopez")
            try await stack.name(aunt, display: "Auntie Jo")
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [aunt, grandad])
            let turns = [mum, aunt, grandad, mum, aunt, mum]
            for (index, actor) in turns.enumerated() {
                try await stack.record(.commentAdded, on: profile, by: actor, detail: "c\(index)")
            }
            let names = [mum.id: "Maria Lopez", aunt.id: "Auntie Jo", grandad.id: ""]
            let home = try await stack.family.getHome(.init(), options: grandad.bearer)
            #expect(home.activity.map(\.actorID) == turns.reversed().map(\.id))
            #expect(home.activity.map(\.actorName) == turns.reversed().map { names[$0.id] ?? "?" })
        }
    }

    @Test func aStrangerIsToldTheProfileDoesNotExistAndAForeignTokenIsRefused() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let stranger = try await stack.register("stranger", age: 30)
            let profile = try await stack.babyProfile(ownedBy: mum)
            for _ in 0..<3 { try await stack.record(.commentAdded, on: profile, by: mum) }
            let refused = await rpcError {
                try await stack.family.getHome(
                    .init(profileID: profile.description), options: stranger.bearer)
            }
            #expect(refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND")
            #expect(try await stack.family.getHome(.init(), options: stranger.bearer).activity.isEmpty)

            let page = try await stack.family.getHome(.init(page: .init(pageSize: 1)), options: mum.bearer)
            let replayed = await rpcError {
                try await stack.family.getHome(
                    .init(
                        profileID: profile.description,
                        page: page.page.map { .init(pageToken: $0.nextPageToken) }),
                    options: mum.bearer)
            }
            #expect(replayed?.code == .invalidArgument && replayed?.badFields == ["page.page_token"])
        }
    }
}
