import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetComplianceReport` (admins) and `WatchEvents` (services).
extension IdentityAPI {
    func getComplianceReport(
        _ request: Kindred_Identity_V1_GetComplianceReportRequest, context: ServerContext
    ) async throws -> Kindred_Identity_V1_GetComplianceReportResponse {
        let report = try await accounts.complianceReport(
            since: request.since, as: try context.authenticatedCaller())
        return Kindred_Identity_V1_GetComplianceReportResponse(
            accountsPerAgeBand: report.accountsPerBand.map {
                Kindred_Identity_V1_AgeBandCount(ageBand: $0.band.proto, accounts: Int64($0.accounts))
            },
            refusedUnder13Attempts: report.refusedPerDay.map {
                Kindred_Identity_V1_RefusedAttemptsOnDay(day: $0.day.proto, attempts: Int64($0.attempts))
            })
    }

    func watchEvents(
        _ request: Kindred_Identity_V1_WatchEventsRequest,
        responses: ResponseStreamWriter<Kindred_Identity_V1_Event>,
        context: ServerContext
    ) async throws {
        try await events.serveWatch(
            after: request.afterCursor, context: context, domain: IdentityError.domain, write: responses.write
        )
    }
}
