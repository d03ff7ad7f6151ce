import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A deleted baby profile's content is kept seven years, unreadable by anyone, then purged by a daily job
/// that one instance runs per day.
@Suite struct BabyRetentionTests {
    @Test func aDeletedProfileIsUnreadableAtOnceKeptSevenYearsThenPurged() async throws {
        try await BabyContentFamily.with { home in
            _ = try await home.createEvent()
            _ = try await home.createItem()
            _ = try await home.family.deleteBabyProfile(
                .init(profileID: home.profile.description), options: home.mum.bearer)

            for user in [home.mum, home.grandma] {
                let read = await rpcError {
                    try await home.family.listCalendarEvents(
                        .init(profileID: home.profile.description), options: user.bearer)
                }
                #expect(
                    read?.code == .notFound && read?.reason == "BABY_PROFILE_NOT_FOUND", "\(user.username)")
            }
            #expect(try await home.count("baby_members") == 0)
            #expect(try await home.count("calendar_events") == 1)
            #expect(try await home.count("registry_items") == 1)
            #expect(try await home.count("baby_activity") == 2)
            // CreateBabyProfile's idempotency key, as a create with a request id leaves it.
            try await home.stack.pool.query(
                """
                INSERT INTO family.baby_profile_requests (user_id, request_id, profile_id)
                VALUES (\(home.mum.id)::uuid, 'create-1', \(home.profile)::uuid)
                """)

            let retention = BabyRetention(context: home.stack.context)
            let deletedAt = home.stack.clock.now
            #expect(try await retention.purge(at: deletedAt.addingYears(7).addingTimeInterval(-86_400)) == 0)
            #expect(try await home.count("calendar_events") == 1)
            #expect(try await home.events().filter { $0.type == "baby_profile.purged" }.isEmpty)

            #expect(try await retention.purge(at: deletedAt.addingYears(7).addingTimeInterval(86_400)) == 1)
            #expect(try await home.count("baby_profiles") == 0)
            #expect(try await home.count("calendar_events") == 0)
            #expect(try await home.count("registry_items") == 0)
            #expect(try await home.count("baby_activity") == 0)
            // CreateBabyProfile's key has no foreign key to cascade from (family migration 24, for Citus).
            #expect(try await home.count("baby_profile_requests") == 0)
            // Gamification keeps games of the profile: the event, written with the purge, tells it to purge them.
            let purged = try await home.events().filter { $0.type == "baby_profile.purged" }
            guard purged.count == 1, case .babyProfilePurged(let event) = purged[0].event.payload else {
                Issue.record("the purge wrote \(purged.map(\.type)), not one baby_profile.purged")
                return
            }
            #expect(event.profileID == home.profile.description)
        }
    }

    @Test func aProfileLeftWithoutOwnersStartsItsRetentionWhenItIsDeactivated() async throws {
        try await BabyContentFamily.with { home in
            try await home.stack.pool.transaction { tx in
                try await BabyMemberStore.forget(
                    try #require(UserID(home.mum.id)), now: home.stack.clock.now, in: tx)
            }
            let deletedAt = try await home.stack.pool.query(
                "SELECT deleted_at FROM family.baby_profiles WHERE profile_id = \(home.profile)::uuid"
            )[0].decode(Date?.self, column: 0)
            #expect(abs(try #require(deletedAt).timeIntervalSince(home.stack.clock.now)) < 0.001)
            let retention = BabyRetention(context: home.stack.context)
            #expect(try await retention.purge(at: home.stack.clock.now.addingYears(8)) == 1)
        }
    }

    @Test func theDailyJobRunsOnceADayWhateverTheNumberOfInstances() async throws {
        try await BabyContentFamily.with { home in
            _ = try await home.family.deleteBabyProfile(
                .init(profileID: home.profile.description), options: home.mum.bearer)
            let instances = [
                BabyRetention(context: home.stack.context), BabyRetention(context: home.stack.context),
            ]
            let clock = home.stack.clock
            clock.advance(
                seconds: clock.now.addingYears(7).addingTimeInterval(86_400).timeIntervalSince(clock.now))

            let reports = try await withThrowingTaskGroup(of: [String: Int]?.self) { group in
                for instance in instances { group.addTask { try await instance.job.runIfUnclaimed() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(reports.compactMap { $0 } == [["profiles_purged": 1]])
            let stored = try await home.stack.pool.query(
                "SELECT report::text FROM family.daily_jobs WHERE job = 'baby profile retention'")
            #expect(try stored.map { try $0.decode(String.self, column: 0) } == [#"{"profiles_purged": 1}"#])
            home.stack.clock.advance(seconds: 86_400)
            #expect(try await instances[0].job.runIfUnclaimed() == ["profiles_purged": 0])
        }
    }
}

extension Date {
    /// This instant `years` calendar years later, in UTC.
    fileprivate func addingYears(_ years: Int) -> Date {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return utc.date(byAdding: .year, value: years, to: self)!
    }
}
