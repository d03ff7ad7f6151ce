import KindredAPI
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Daily totals are local days of the user's zone, split at local midnight by the zone's own rules.
@Suite struct UsageDayBoundaryTests {
    @Test func aSessionAcrossMidnightInRomeCountsOnBothLocalDays() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            try await stack.setZone("Europe/Rome", of: anna)
            // 21:30 UTC on 1 May is 23:30 in Rome (UTC+2): 30 minutes before midnight, 60 after.
            try await stack.upload(
                [usageSession("s1", "youtube", from: "2026-05-01T21:30:00Z", minutes: 90)], as: anna)
            #expect(
                try await stack.dailySeconds(of: anna, app: "youtube") == [
                    "2026-05-01": 1_800, "2026-05-02": 3_600,
                ])
            let day = try await stack.gamification.getUsageSummary(
                .init(period: .day, date: .init(year: 2026, month: 5, day: 2)), options: anna.bearer)
            #expect(day.totalMinutes == 60)
            #expect(day.timeZone == "Europe/Rome")
        }
    }

    @Test func theSameSessionInUTCStaysOnOneDay() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            try await stack.upload(
                [usageSession("s1", "youtube", from: "2026-05-01T21:30:00Z", minutes: 90)], as: ben)
            #expect(try await stack.dailySeconds(of: ben, app: "youtube") == ["2026-05-01": 5_400])
        }
    }

    @Test func daylightSavingDaysInNewYorkHave23And25Hours() async throws {
        try await GamificationTestStack.with { stack in
            let cleo = try await stack.register("cleo")
            try await stack.setZone("America/New_York", of: cleo)
            // 8 March 2026 starts at 05:00 UTC (EST) and ends at 04:00 UTC on 9 March (EDT): 23 hours. A
            // 24-hour session from 05:00 UTC fills it and spills one hour into 9 March.
            // 1 November 2026 runs from 04:00 UTC (EDT) to 05:00 UTC on 2 November (EST): 25 hours, filled by a
            // 24-hour session from 04:00 UTC and the hour after it.
            try await stack.upload(
                [
                    usageSession("spring", "tiktok", from: "2026-03-08T05:00:00Z", minutes: 24 * 60),
                    usageSession("autumn", "tiktok", from: "2026-11-01T04:00:00Z", minutes: 24 * 60),
                    usageSession("autumn-last-hour", "tiktok", from: "2026-11-02T04:00:00Z", minutes: 60),
                ], as: cleo)
            #expect(
                try await stack.dailySeconds(of: cleo, app: "tiktok") == [
                    "2026-03-08": 23 * 3_600, "2026-03-09": 3_600, "2026-11-01": 25 * 3_600,
                ])
        }
    }

    @Test func weeksStartOnMondayAndMonthsOnTheFirst() async throws {
        try await GamificationTestStack.with { stack in
            let dan = try await stack.register("dan")
            stack.clock.set("2026-06-15T12:00:00Z")
            // Sunday 14 June and Monday 15 June 2026 (the test clock's today).
            try await stack.upload(
                [
                    usageSession("sun", "instagram", from: "2026-06-14T10:00:00Z", minutes: 30),
                    usageSession("mon", "instagram", from: "2026-06-15T10:00:00Z", minutes: 20),
                    usageSession("may", "whatsapp", from: "2026-05-31T10:00:00Z", minutes: 5),
                ], as: dan)
            let week = try await stack.gamification.getUsageSummary(.init(period: .week), options: dan.bearer)
            #expect(week.firstDay == .init(year: 2026, month: 6, day: 15))
            #expect(week.lastDay == .init(year: 2026, month: 6, day: 21))
            #expect(week.totalMinutes == 20)
            let month = try await stack.gamification.getUsageSummary(
                .init(period: .month), options: dan.bearer)
            #expect(month.firstDay == .init(year: 2026, month: 6, day: 1))
            #expect(month.lastDay == .init(year: 2026, month: 6, day: 30))
            #expect(month.apps.map(\.appID) == ["instagram"])
            #expect(month.totalMinutes == 50)
        }
    }
}
