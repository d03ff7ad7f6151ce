import Foundation
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// `GetHome`'s statements: the first page is the memberships (with the countdowns and the arrivals of the last
/// 30 days) beside the activity page, whether or not any profile has an arrival; a later page is the activity
/// page alone. The answers stay those of the three reads it replaced.
@Suite(.serialized) struct HomeStatementTests {
    static let calls = 5

    /// The statements `call` ran on every one of `calls` calls after a warm-up call, each with how often (the
    /// background's, run now and then, left out).
    static func run(_ tally: StatementTally, _ call: () async throws -> Void) async throws
        -> [StatementTally.Statement]
    {
        try await call()
        try await tally.reset()
        for _ in 0..<calls { try await call() }
        return try await tally.statements().filter { $0.calls >= calls }
    }

    @Test func aHomeWithoutArrivalsIsTwoStatementsOverAllProfilesOrOne() async throws {
        try await BabyContentFamily.with { home in
            let tally = try #require(try await StatementTally.start(on: home.stack.pool))
            for _ in 0..<3 { try await home.stack.record(.commentAdded, on: home.profile, by: home.mum) }
            let (family, grandma, profile) = (home.family, home.grandma.bearer, home.profile.description)
            let all = try await Self.run(tally) {
                let page = try await family.getHome(.init(page: .init(pageSize: 2)), options: grandma)
                #expect(page.arrivals.isEmpty && page.activity.count == 2)
            }
            #expect(all.map(\.calls) == [Self.calls, Self.calls], "\(all.map(\.text))")
            let one = try await Self.run(tally) {
                let page = try await family.getHome(
                    .init(profileID: profile, page: .init(pageSize: 2)), options: grandma)
                #expect(page.arrivals.isEmpty && page.activity.count == 2)
            }
            #expect(one.map(\.calls) == [Self.calls, Self.calls], "\(one.map(\.text))")
        }
    }

    @Test func anArrivalComesWithTheMembershipsNewestFirstAsTheReaderSeesIt() async throws {
        try await BabyContentFamily.with { home in
            let tally = try #require(try await StatementTally.start(on: home.stack.pool))
            let (family, mum) = (home.family, home.mum)
            try await home.announce()
            home.stack.clock.advance(seconds: 10 * 86_400)
            let max = try await home.stack.babyProfile(ownedBy: mum, followers: [home.grandma, home.grandpa])
            _ = try await family.announceArrival(
                .init(profileID: max.description, arrival: home.arrival(name: "Max")), options: mum.bearer)
            _ = try await family.squishArrival(
                .init(profileID: max.description), options: home.grandma.bearer)
            let grandma = home.grandma.bearer
            let statements = try await Self.run(tally) {
                let page = try await family.getHome(.init(), options: grandma)
                #expect(page.arrivals.map(\.profileID) == [max.description, home.profile.description])
                #expect(page.arrivals.map(\.name) == ["Max", "Lily"])
                #expect(page.arrivals.map(\.squishedByMe) == [true, false])
                #expect(page.arrivals.first?.weightGrams == 3_450)
            }
            #expect(statements.map(\.calls) == [Self.calls, Self.calls], "\(statements.map(\.text))")
            let grandpas = try await family.getHome(.init(), options: home.grandpa.bearer)
            #expect(grandpas.arrivals.map(\.squishedByMe) == [false, false])
            #expect(grandpas.arrivals.first?.squishCount == 1)
            let one = try await family.getHome(.init(profileID: home.profile.description), options: grandma)
            #expect(one.arrivals.map(\.profileID) == [home.profile.description])
            #expect(try await family.getHome(.init(), options: home.stranger.bearer).arrivals.isEmpty)
        }
    }

    @Test func anArrivalOlderThanThirtyDaysLeavesTheHome() async throws {
        try await BabyContentFamily.with { home in
            let (family, grandma) = (home.family, home.grandma.bearer)
            try await home.announce()
            home.stack.clock.advance(seconds: 20 * 86_400)
            let max = try await home.stack.babyProfile(ownedBy: home.mum, followers: [home.grandma])
            _ = try await family.announceArrival(
                .init(profileID: max.description, arrival: home.arrival(name: "Max")),
                options: home.mum.bearer)
            home.stack.clock.advance(seconds: 10 * 86_400 + 1)
            let page = try await family.getHome(.init(), options: grandma)
            #expect(page.arrivals.map(\.profileID) == [max.description])
            let old = try await family.getHome(.init(profileID: home.profile.description), options: grandma)
            #expect(old.arrivals.isEmpty && !old.activity.isEmpty)
        }
    }

    @Test func aLaterPageReadsOnlyTheActivity() async throws {
        try await BabyContentFamily.with { home in
            let tally = try #require(try await StatementTally.start(on: home.stack.pool))
            try await home.announce()
            for _ in 0..<2 { try await home.stack.record(.commentAdded, on: home.profile, by: home.mum) }
            let (family, grandma, profile) = (home.family, home.grandma.bearer, home.profile.description)
            for asked in ["", profile] {
                let first = try await family.getHome(
                    .init(profileID: asked, page: .init(pageSize: 1)), options: grandma)
                #expect(first.arrivals.count == 1)
                let token = try #require(first.page?.nextPageToken)
                let statements = try await Self.run(tally) {
                    let next = try await family.getHome(
                        .init(profileID: asked, page: .init(pageSize: 1, pageToken: token)), options: grandma)
                    #expect(next.arrivals.isEmpty && next.countdowns.isEmpty && next.activity.count == 1)
                    #expect(next.activity.first?.activityID != first.activity.first?.activityID)
                }
                #expect(statements.map(\.calls) == [Self.calls], "\(statements.map(\.text))")
                #expect(!statements.contains { $0.text.contains("baby_arrivals") })
                if !asked.isEmpty {
                    let stranger = await rpcError {
                        try await family.getHome(
                            .init(profileID: asked, page: .init(pageSize: 1, pageToken: token)),
                            options: home.stranger.bearer)
                    }
                    #expect(stranger?.code == .notFound && stranger?.reason == "BABY_PROFILE_NOT_FOUND")
                }
            }
            let unknown = await rpcError {
                try await family.getHome(.init(profileID: UUID().uuidString.lowercased()), options: grandma)
            }
            #expect(unknown?.code == .notFound && unknown?.reason == "BABY_PROFILE_NOT_FOUND")
        }
    }
}
