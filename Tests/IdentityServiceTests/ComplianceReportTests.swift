@testable import IdentityService
import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("GetComplianceReport")
struct ComplianceReportTests {
    @Test func onlyAdminsMayReadIt() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let user = try await test.register()
            for caller in [TestCallers.of(user), TestCallers.service] {
                let error = await rpcError {
                    try await test.accounts.complianceReport(since: nil, as: caller)
                }
                #expect(error?.code == .permissionDenied)
                #expect(error?.reason == "ADMIN_ONLY")
            }
        }
    }

    @Test func itCountsAccountsPerBandAndRefusedAttemptsPerDay() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-06-01T08:00:00Z"))
            try await test.register("adult_one")
            try await test.register("adult_two")
            try await test.register("young", born: (2012, 1, 1))
            _ = await rpcError { try await test.register("kid_a", born: (2015, 1, 1)) }
            test.clock.set("2026-06-15T08:00:00Z")
            _ = await rpcError { try await test.register("kid_b", born: (2015, 1, 1)) }
            _ = await rpcError { try await test.register("kid_c", born: (2020, 1, 1)) }

            let report = try await test.accounts.complianceReport(since: nil, as: TestCallers.admin)
            #expect(
                report.accountsPerBand == [
                    AccountStore.BandCount(band: .thirteenToFifteen, accounts: 1),
                    AccountStore.BandCount(band: .sixteenToSeventeen, accounts: 0),
                    AccountStore.BandCount(band: .adult, accounts: 2),
                ])
            #expect(
                report.refusedPerDay == [
                    AccountStore.RefusedDay(day: CalendarDate(year: 2026, month: 6, day: 1)!, attempts: 1),
                    AccountStore.RefusedDay(day: CalendarDate(year: 2026, month: 6, day: 15)!, attempts: 2),
                ])
            let recent = try await test.accounts.complianceReport(
                since: DateComponents(year: 2026, month: 6, day: 2), as: TestCallers.admin)
            #expect(recent.refusedPerDay.map(\.attempts) == [2])
        }
    }

    @Test func withoutASinceDateItCoversTheLastThirtyDays() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2026-05-16T12:00:00Z"))
            _ = await rpcError { try await test.register("kid_a", born: (2015, 1, 1)) }
            test.clock.set("2026-05-17T12:00:00Z")
            _ = await rpcError { try await test.register("kid_b", born: (2015, 1, 1)) }
            test.clock.set("2026-06-15T12:00:00Z")
            let report = try await test.accounts.complianceReport(since: nil, as: TestCallers.admin)
            #expect(report.refusedPerDay.map(\.day.description) == ["2026-05-17"])
        }
    }

    @Test func anImpossibleSinceDateIsNamed() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let error = await rpcError {
                try await TestAccounts(pool).accounts.complianceReport(
                    since: DateComponents(year: 2026, month: 2, day: 30), as: TestCallers.admin)
            }
            #expect(error?.badFields == ["since"])
        }
    }
}
