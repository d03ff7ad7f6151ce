import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit

extension VirtualUser {
    /// A teenager's message to someone they do not follow, which their guardian's controls refuse:
    /// PERMISSION_DENIED `PARENTAL_CONTROLS_MESSAGING_RESTRICTED`, an expected refusal; anything else (a
    /// message that went through included) is a failure.
    func messageStranger(due: ContinuousClock.Instant?, iteration: Int, options: CallOptions) async {
        let users = shared.seed.seededUsers
        let stranger = users.userID(users.stranger(of: index))
        let method = Social.Method.sendMessage
        await recorder.time(
            method, as: method.rpcName + " (refused by parental controls)", from: due,
            isExpected: { $0.code == .permissionDenied }
        ) {
            _ = try await Social.Client(clients.social).sendMessage(
                .init(requestID: "lt-stranger-\(index)-\(iteration)", recipientUserID: stranger, text: "Hi!"),
                options: options)
            throw ToolError("a restricted teenager's message to a stranger went through")
        }
    }

    /// A guardian's look at their teenager: the controls' status (no PIN needed) and the approvals waiting.
    func lookAfterTeen(_ action: Persona.Action, due: ContinuousClock.Instant?, options: CallOptions) async {
        let family = Family.Client(clients.family)
        if action == .getParentalControlsStatus {
            let teen = shared.seed.seededUsers.userID(index + 1)
            await recorder.time(Family.Method.getParentalControlsStatus, from: due) {
                _ = try await family.getParentalControlsStatus(.init(userID: teen), options: options)
            }
        } else {
            await recorder.time(Family.Method.listApprovalRequests, from: due) {
                _ = try await family.listApprovalRequests(.init(page: .init(pageSize: 20)), options: options)
            }
        }
    }
}
