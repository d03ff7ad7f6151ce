import KindredAPI
import KindredMessages
import KindredRPC

/// Reports: placeholders until the part lands.
extension SocialAPI {
    func reportContent(_ request: Kindred_Social_V1_ReportContentRequest, context: ServerContext) async throws -> Kindred_Social_V1_ReportContentResponse {
        throw RPCError(.unimplemented, "ReportContent is not implemented yet")
    }
}
