import KindredAPI
import KindredMessages
import KindredRPC

/// Reports (`ReportContent`).
extension SocialAPI {
    func reportContent(_ request: Kindred_Social_V1_ReportContentRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ReportContentResponse
    {
        let outcome = try await reports.file(try ContentReport(request), by: try context.account())
        return Kindred_Social_V1_ReportContentResponse(
            reportCount: Int32(outcome.reporters), filtered: outcome.filtered)
    }
}
