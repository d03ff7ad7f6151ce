import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit

extension VirtualUser {
    /// A teenager's message to someone they do not follow, which their guardian's controls refuse:
    /// PERMISSION_DENIED `PARENTAL_CONTROLS_MESSAGING_RESTRICTED`, an expected refusal; anything else (a
    /// message that went through included) is a failure.
    func messageStranger(due: ContinuousClock.Instant?, iteration: Int) async {
        let users = shared.seed.seededUsers
        let stranger = users.userID(users.stranger(of: index))
        await timed(
            Social.Method.sendMessage, as: Self.messageToStranger, from: due,
            isExpected: { $0.code == .permissionDenied }
        ) { options in
            _ = try await Social.Client(clients.social).sendMessage(
                .init(requestID: "lt-stranger-\(index)-\(iteration)", recipientUserID: stranger, text: "Hi!"),
                options: options)
            throw ToolError("a restricted teenager's message to a stranger went through")
        }
    }

    static let messageToStranger = Social.Method.sendMessage.rpcName + " (refused by parental controls)"

    /// A teenager asks to join a public event of someone they do not follow: the first ask creates a guardian
    /// approval (FAILED_PRECONDITION `GUARDIAN_APPROVAL_REQUIRED`, as while it waits), a denied one is
    /// PERMISSION_DENIED `GUARDIAN_DENIED`: expected refusals; an approved one joins.
    func joinStrangersEvent(due: ContinuousClock.Instant?, iteration: Int) async {
        let users = shared.seed.seededUsers
        guard let organizer = users.publicOrganizer(farFrom: index, pick: iteration) else { return }
        await timed(
            Social.Method.joinEvent, from: due,
            isExpected: { $0.code == .failedPrecondition || $0.code == .permissionDenied }
        ) { options in
            _ = try await Social.Client(clients.social).joinEvent(
                .init(eventID: users.eventID(organizer: organizer)), options: options)
        }
    }

    /// A guardian's look at their teenager: the controls' status (no PIN needed), the approvals, or an answer
    /// to the oldest one waiting (approved two times in three).
    func lookAfterTeen(_ action: Persona.Action, due: ContinuousClock.Instant?) async {
        let family = Family.Client(clients.family)
        switch action {
        case .getParentalControlsStatus:
            let teen = shared.seed.seededUsers.userID(index + 1)
            await timed(Family.Method.getParentalControlsStatus, from: due) { options in
                _ = try await family.getParentalControlsStatus(.init(userID: teen), options: options)
            }
        case .answerApproval:
            var waiting: [Kindred_Family_V1_ApprovalRequest] = []
            await timed(Family.Method.listApprovalRequests, from: due) { options in
                waiting = try await family.listApprovalRequests(
                    .init(state: .pending, page: .init(pageSize: 1)), options: options
                ).approvals
            }
            guard let approval = waiting.first else { return }
            await timed(Family.Method.decideApprovalRequest) { options in
                _ = try await family.decideApprovalRequest(
                    .init(approvalID: approval.approvalID, approve: Int.random(in: 0..<3) > 0),
                    options: options)
            }
        default:
            await timed(Family.Method.listApprovalRequests, from: due) { options in
                _ = try await family.listApprovalRequests(.init(page: .init(pageSize: 20)), options: options)
            }
        }
    }
}
