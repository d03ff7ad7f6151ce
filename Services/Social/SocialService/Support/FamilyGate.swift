import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredRuntime

/// The family service as social asks it: a user's parental controls, and guardian approvals. Controls are
/// asked afresh on every call that needs them, never cached, so a guardian's change applies to the very next
/// call; parts ask only when a rule could refuse (a minor, and no follow that already allows it).
struct FamilyGate: Sendable {
    let client: Kindred_Family_V1_FamilyService.Client
    let credentials: ServiceCredentials

    init(familyTarget: String, credentials: ServiceCredentials) throws(RPCError) {
        client = Kindred_Family_V1_FamilyService.Client(try RPCClient(target: familyTarget))
        self.credentials = credentials
    }

    /// `userID`'s parental controls (inactive ones for an adult), with social's service token.
    func controls(of userID: UserID) async throws -> Kindred_Family_V1_ParentalControls {
        try await PeerCall.run("family") {
            try await client.getParentalControls(
                .init(userID: userID.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true)
            ).controls ?? Kindred_Family_V1_ParentalControls()
        }
    }

    /// Asks `minorID`'s guardians to approve `subject`, on the minor's behalf: their own token, forwarded from
    /// `requestMetadata`; returns family's request. Family answers the pending request again rather than
    /// making a second, and refuses a minor without a guardian (FAILED_PRECONDITION `NO_GUARDIAN`, passed on).
    func requestApproval(
        of subject: EventApprovalStore.Subject, summary: String, minorID: UserID,
        forwarding requestMetadata: Metadata
    ) async throws -> ApprovalID {
        let (kind, subjectID): (Kindred_Family_V1_ApprovalKind, String) =
            switch subject {
            case .join(let eventID): (.joinEvent, eventID.description)
            case .mediaView(let mediaID): (.viewFlaggedMedia, mediaID.description)
            }
        var options = CallOptions(timeout: .seconds(5))
        options.forwardAuthorization(from: requestMetadata)
        let response = try await PeerCall.run("family", passingRefusals: true) {
            try await client.createApprovalRequest(
                .init(minorUserID: minorID.description, kind: kind, subjectID: subjectID, summary: summary),
                options: options)
        }
        guard let approval = response.approval, let id = ApprovalID(approval.approvalID) else {
            throw RPCError.internalError("family created an approval request without answering its id")
        }
        return id
    }

    /// Where approval request `approvalID` stands, with social's service token; nil when family knows no such
    /// request.
    func state(of approvalID: ApprovalID) async throws -> ApprovalState? {
        try await PeerCall.run("family") {
            do {
                return try await client.getApprovalRequest(
                    .init(approvalID: approvalID.description),
                    options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true)
                ).approval.map { ApprovalState($0.state) }
            } catch let error as RPCError where error.code == .notFound {
                return nil
            }
        }
    }
}
