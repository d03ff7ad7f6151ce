@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `GetHome`: the countdown of followed profiles due within 10 days, then recent activity, newest first.
@Suite struct GetHomeTests {
    /// 10:00 UTC: a profile due on the 28th is 2 days 14 hours away, so less than 3 days.
    static let now = "2026-11-25T10:00:00Z"

    static func due(_ text: String) -> Date { TestClock.parse("\(text)T00:00:00Z") }

    @Test func followersSeeTheCountdownOfProfilesDueWithinTenDaysAndOwnersDoNot() async throws {
        try await FamilyTestStack.with(clock: TestClock(Self.now)) { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            try await stack.name(mum, last: "Lopez")
            let soon = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], expectedBirth: Self.due("2026-11-28"))
            let named = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], name: "Lily", expectedBirth: Self.due("2026-12-05"))
            _ = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], expectedBirth: Self.due("2026-12-06"))
            _ = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], expectedBirth: Self.due("2026-11-25"))
            _ = try await stack.babyProfile(ownedBy: aunt, expectedBirth: Self.due("2026-11-27"))

            let home = try await stack.family.getHome(.init(), options: aunt.bearer)
            #expect(home.countdowns.map(\.profileID) == [soon.description, named.description])
            #expect(home.countdowns.map(\.daysLeft) == [3, 10])
            #expect(
                home.countdowns.map(\.message) == [
                    "Baby Lopez is arriving in less than 3 days!", "Lily is arriving in less than 10 days!",
                ])
            #expect(home.countdowns.first?.expectedBirthDate == .init(year: 2026, month: 11, day: 28))
            let owners = try await stack.family.getHome(.init(), options: mum.bearer)
            #expect(owners.countdowns.isEmpty)
        }
    }

    @Test func theLastDayBeforeTheDueDateIsLessThanOneDay() async throws {
        try await FamilyTestStack.with(clock: TestClock("2026-11-27T23:30:00Z")) { stack in
            let mum = try await stack.register("mum", age: 30)
            let aunt = try await stack.register("aunt", age: 40)
            let profile = try await stack.babyProfile(
                ownedBy: mum, followers: [aunt], name: "Max", expectedBirth: Self.due("2026-11-28"))
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
