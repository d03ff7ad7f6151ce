import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetComplianceReport`: accounts per age band and refused under-13 registrations per day. Admins only.
extension Accounts {
    /// What the report holds.
    struct ComplianceReport: Sendable, Equatable {
        /// Every band, in order, including those with no account.
        let accountsPerBand: [AccountStore.BandCount]
        /// Days with at least one refusal, oldest first.
        let refusedPerDay: [AccountStore.RefusedDay]
    }

    /// Days a report covers when the request names no start: today and the 29 before it.
    static let defaultReportDays = 30

    /// The report for `caller`, refused attempts from `since` on (UTC; nil: the last 30 days).
    func complianceReport(since: DateComponents?, as caller: Caller) async throws -> ComplianceReport {
        guard caller.role == .admin else { throw IdentityError.adminOnly }
        var start = clock.today.adding(days: 1 - Self.defaultReportDays)
        if let since {
            guard let date = CalendarDate(since) else {
                throw FieldViolations.single("since", "must be a date of the calendar")
            }
            start = date
        }
        let counts = try await AccountStore.accountsPerBand(on: database)
        return ComplianceReport(
            accountsPerBand: TokenClaims.AgeBand.allCases.map {
                AccountStore.BandCount(band: $0, accounts: counts[$0] ?? 0)
            },
            refusedPerDay: try await AccountStore.refusedRegistrations(since: start, on: database))
    }
}
