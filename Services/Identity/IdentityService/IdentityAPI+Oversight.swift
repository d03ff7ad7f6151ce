import KindredRuntime
import KindredAPI
import KindredEvents
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
        _ = try context.authenticatedCaller(as: .service)
        guard request.afterCursor >= 0 else {
            throw FieldViolations.single("after_cursor", "must not be negative")
        }
        do {
            for try await event in events.events(after: request.afterCursor) {
                try await responses.write(try IdentityEvent.message(from: event))
            }
        } catch let pruned as EventsPruned {
            throw IdentityError.eventsPruned(after: pruned.afterCursor, oldestRetained: pruned.oldestRetained)
        }
    }
}
