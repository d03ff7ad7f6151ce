import KindredAPI
import KindredMessages
import KindredRPC

/// Reports (`ReportContent`).
extension SocialAPI {
    func reportContent(_ request: Kindred_Social_V1_ReportContentRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ReportContentResponse
    {
        guard let me = try context.authenticatedCaller().accountID else { throw SocialError.accountRequired }
        let outcome = try await reports.file(try ContentReport(request), by: me)
        return Kindred_Social_V1_ReportContentResponse(
            reportCount: Int32(outcome.reporters), filtered: outcome.filtered)
    }
}
