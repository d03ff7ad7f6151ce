@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The weekly summary: one mail per guardian (with the summary on) per week, counting each guarded minor's
/// activity of the week before, exactly once however many sweeps run.
@Suite struct WeeklySummaryTests {
    @Test(arguments: [
        ("2054-11-23T00:00:00Z", "2054-11-23T00:00:00Z"),
        ("2054-11-22T23:59:59Z", "2054-11-16T00:00:00Z"),
        ("2054-11-25T12:00:00Z", "2054-11-23T00:00:00Z"),
        ("2054-11-29T23:59:59Z", "2054-11-23T00:00:00Z"),
        ("1970-01-01T00:00:00Z", "1969-12-29T00:00:00Z"),
        ("1969-12-28T12:00:00Z", "1969-12-22T00:00:00Z"),
    ])
    func weeksStartOnMondayAtMidnightUTC(instant: String, monday: String) {
        let week = SummaryWeek(containing: TestClock.parse(instant))
        #expect(week.start == TestClock.parse(monday))
        #expect(week.end == TestClock.parse(monday) + 7 * 86_400)
        #expect(week.previous.start == TestClock.parse(monday) - 7 * 86_400)
    }

    /// Records `kind` activity of `minor` at `instant`, as a handled social event does.
    static func activity(
        _ minor: String, _ kind: Kindred_Family_V1_NotificationKind, at instant: String, _ pool: PostgresPool
    )
        async throws
    {
        try await pool.query(
            """
            INSERT INTO family.minor_activity (minor_id, event_key, kind, occurred_at)
            VALUES (\(minor)::uuid, \(UUIDv7.generate(at: Date())), \(kind.rawValue)::smallint, \(TestClock.parse(instant)))
            """)
    }

    /// Another instance's summaries: its own pool on the stack's database, the same clock and identity.
    static func secondInstance(_ stack: FamilyTestStack, _ pool: PostgresPool) -> WeeklySummaries {
        WeeklySummaries(context: stack.context.onAnotherInstance(pool))
    }

    @Test func racingAndRepeatedSweepsSendEachGuardianOneSummaryAWeek() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_w", age: 15)
            let leo = try await stack.register("leo_w", age: 13)
            let mum = try await stack.register("mum_w", age: 42)
            let dad = try await stack.register("dad_w", age: 44)
            let aunt = try await stack.register("aunt_w", age: 50)
            let desk = try NoticeDesk(stack.pool)
            try await desk.link(guardian: UserID(mum.id)!, to: UserID(mia.id)!)
            try await desk.link(guardian: UserID(mum.id)!, to: UserID(leo.id)!)
            try await desk.link(guardian: UserID(dad.id)!, to: UserID(mia.id)!)
            try await desk.link(guardian: UserID(aunt.id)!, to: UserID(leo.id)!)
            _ = try await Notifications(context: stack.context).updateSettings(
                .init(activityAlerts: true, weeklySummary: false), of: UserID(aunt.id)!)
            for (kind, instant) in [
                (Kindred_Family_V1_NotificationKind.minorNewContact, "2054-11-16T00:00:00Z"),
                (.minorNewContact, "2054-11-18T09:00:00Z"), (.minorJoinedPublicEvent, "2054-11-20T17:00:00Z"),
                (.minorContentReported, "2054-11-22T23:59:59Z"),
                (.minorNewContact, "2054-11-15T23:59:59Z"), (.minorNewContact, "2054-11-23T00:00:00Z"),
            ] {
                try await Self.activity(mia.id, kind, at: instant, stack.pool)
            }
            stack.clock.set("2054-11-23T00:20:00Z")

            let otherPool = PostgresPool(
                configuration: stack.pool.configuration, logger: FamilyTestDatabase.logger)
            let here = WeeklySummaries(context: stack.context)
            let there = Self.secondInstance(stack, otherPool)
            async let first = here.sweep()
            async let second = there.sweep()
            #expect(try await first + second == 2)
            #expect(try await here.sweep() + there.sweep() == 0)

            let summaries = try await stack.familyMail.all().filter { $0.kind == "weekly_summary" }
            #expect(summaries.map(\.to).sorted() == [dad.email, mum.email].sorted())
            let mumsMail = try #require(summaries.first { $0.to == mum.email })
            #expect(mumsMail.subject == "Your Kindred weekly summary for the week of 2054-11-16")
            #expect(
                mumsMail.body.contains(
                    "mia_w: 2 new contacts, 1 public event joined, 1 report of their content"))
            #expect(
                mumsMail.body.contains(
                    "leo_w: 0 new contacts, 0 public events joined, 0 reports of their content"))
            #expect(mumsMail.body.contains("from 2054-11-16 to 2054-11-22"))

            stack.clock.set("2054-11-30T05:00:00Z")
            #expect(try await there.sweep() == 2)
            #expect(try await stack.familyMail.all().filter { $0.kind == "weekly_summary" }.count == 4)
            await otherPool.close()
        }
    }

    /// A replica dies holding a guardian's claim (its transaction open, its pool going with the process): a
    /// replica sweeping meanwhile waits on that claim rather than passing the guardian over, and sends the
    /// summary once the dead one's transaction rolled back; the third finds nothing left.
    @Test func aGuardianWhoseReplicaDiedClaimingTheWeekGetsTheSummaryFromAnother() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_d", age: 15)
            let mum = try await stack.register("mum_d", age: 42)
            try await NoticeDesk(stack.pool).link(guardian: UserID(mum.id)!, to: UserID(mia.id)!)
            stack.clock.set("2054-11-23T00:20:00Z")
            let pools = (0..<3).map { _ in
                PostgresPool(configuration: stack.pool.configuration, logger: FamilyTestDatabase.logger)
            }
            let week = SummaryWeek(containing: stack.clock.now).previous
            let (claimed, claimedNow) = AsyncStream.makeStream(of: Void.self)
            let dying = Task {
                try await pools[0].transaction { tx in
                    _ = try await WeeklySummaryStore.claim(UserID(mum.id)!, week, at: stack.clock.now, in: tx)
                    claimedNow.yield()
                    try await untilCancelled()
                }
            }
            var waiting = claimed.makeAsyncIterator()
            await waiting.next()
            async let survivor = Self.secondInstance(stack, pools[1]).sweep()
            // The survivor's claim waits on the dead one's row lock before the dead one's connection goes.
            try await eventually("the survivor waits on the dead one's lock") {
                try await stack.pool.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )[0].decode(Int.self) == 1
            }
            dying.cancel()
            await pools[0].close()
            _ = await dying.result
            #expect(try await survivor == 1)
            #expect(try await Self.secondInstance(stack, pools[2]).sweep() == 0)
            for pool in pools.dropFirst() { await pool.close() }
            let summaries = try await stack.familyMail.all().filter { $0.kind == "weekly_summary" }
            #expect(summaries.map(\.to) == [mum.email])
        }
    }

    @Test func aGuardianIdentityNoLongerKnowsIsPassedOverForGood() async throws {
        try await FamilyTestStack.with { stack in
            let desk = try NoticeDesk(stack.pool)
            try await desk.link(guardian: NoticeDesk.user(), to: NoticeDesk.user())
            stack.clock.set("2054-11-23T03:00:00Z")
            let summaries = WeeklySummaries(context: stack.context)
            #expect(try await summaries.sweep() == 0)
            #expect(try await desk.count("SELECT count(*)::int FROM family.weekly_summaries") == 1)
            #expect(try await stack.familyMail.all().isEmpty)
        }
    }
}
