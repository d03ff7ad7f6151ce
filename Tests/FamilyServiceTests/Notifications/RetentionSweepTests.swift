@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The hourly sweep's deletes (`WeeklySummaries.run`): everything older than the cutoff goes, in statements of
/// at most a batch, and nothing newer.
@Suite struct RetentionSweepTests {
    @Test func forgettingActivityDeletesABacklogLargerThanABatchAndKeepsWhatIsRecent() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let minor = "\(UUIDv7.generate(at: Date()))"
            for day in ["2054-10-01", "2054-10-02", "2054-10-03", "2054-10-04", "2054-10-05", "2054-11-20"] {
                try await WeeklySummaryTests.activity(minor, .minorNewContact, at: "\(day)T12:00:00Z", pool)
            }

            try await WeeklySummaryStore.forgetActivity(
                before: TestClock.parse("2054-11-01T00:00:00Z"), batchesOf: 2, on: pool)

            let left = try await pool.query("SELECT occurred_at FROM family.minor_activity").decode(Date.self)
            #expect(left == [TestClock.parse("2054-11-20T12:00:00Z")])
        }
    }

    @Test func forgettingActivityWhenNothingIsOldDeletesNothing() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let minor = "\(UUIDv7.generate(at: Date()))"
            try await WeeklySummaryTests.activity(minor, .minorNewContact, at: "2054-11-20T12:00:00Z", pool)

            try await WeeklySummaryStore.forgetActivity(
                before: TestClock.parse("2054-11-01T00:00:00Z"), batchesOf: 2, on: pool)

            #expect(
                try await pool.query("SELECT count(*) FROM family.minor_activity")[0].decode(Int.self) == 1)
        }
    }
}
