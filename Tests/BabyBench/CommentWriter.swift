import Foundation
import KindredAPI
import KindredMessages
import KindredRPC

/// Posts comments on one calendar event of the hot profile through `AddComment`, as a follower's app does: the
/// write is acknowledged when the RPC returns, and each comment's text is unique, so a stream's entry (whose
/// detail is the comment's start) names the comment it announces.
struct CommentWriter: Sendable {
    let family: Kindred_Family_V1_FamilyService.Client
    let profile: String
    let event: String
    let token: String

    /// Posts one comment whose text starts with `prefix`; returns its text once the service acknowledged it.
    func post(_ prefix: String) async throws -> String {
        let text = "\(prefix) \(UUID().uuidString.lowercased())"
        var options = CallOptions(timeout: .seconds(30))
        options.metadata.add("authorization", "Bearer \(token)")
        _ = try await family.addComment(
            .init(
                requestID: UUID().uuidString,
                target: .init(profileID: profile, target: .calendarEventID(event)), text: text),
            options: options)
        return text
    }
}
