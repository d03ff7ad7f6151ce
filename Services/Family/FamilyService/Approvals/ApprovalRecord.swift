import FoundationEssentials
import KindredHandlers
import KindredMessages

/// One approval request as `family.approval_requests` holds it.
struct ApprovalRecord: Sendable, Equatable {
    /// What a minor may ask for; the numbers are `kindred.family.v1.ApprovalKind`'s.
    enum Kind: Int, Sendable {
        case joinEvent = 1
        case viewFlaggedMedia = 2
    }

    /// Where a request stands; the numbers are `kindred.family.v1.ApprovalState`'s.
    enum State: Int, Sendable {
        case pending = 1
        case approved = 2
        case denied = 3
    }

    let id: ApprovalID
    let minorID: UserID
    let kind: Kind
    let subjectID: String
    let summary: String
    let state: State
    /// The guardian who decided; nil while pending.
    let decidedBy: UserID?
    let createdAt: Date
    let decidedAt: Date?

    /// The request as every RPC and the `approval.decided` event show it.
    var proto: Kindred_Family_V1_ApprovalRequest {
        Kindred_Family_V1_ApprovalRequest(
            approvalID: id.description, minorUserID: minorID.description, kind: kind.proto,
            subjectID: subjectID, summary: summary,
            state: state.proto, decidedBy: decidedBy?.description ?? "",
            createdAt: createdAt,
            decidedAt: decidedAt)
    }
}

extension ApprovalRecord.Kind {
    /// The kind a request names; nil for unspecified or unknown.
    init?(_ proto: Kindred_Family_V1_ApprovalKind) {
        switch proto {
        case .joinEvent: self = .joinEvent
        case .viewFlaggedMedia: self = .viewFlaggedMedia
        case .unspecified, .unrecognized: return nil
        }
    }

    var proto: Kindred_Family_V1_ApprovalKind {
        switch self {
        case .joinEvent: .joinEvent
        case .viewFlaggedMedia: .viewFlaggedMedia
        }
    }
}

extension ApprovalRecord.State {
    /// The state a request names; nil for unspecified or unknown.
    init?(_ proto: Kindred_Family_V1_ApprovalState) {
        switch proto {
        case .pending: self = .pending
        case .approved: self = .approved
        case .denied: self = .denied
        case .unspecified, .unrecognized: return nil
        }
    }

    var proto: Kindred_Family_V1_ApprovalState {
        switch self {
        case .pending: .pending
        case .approved: .approved
        case .denied: .denied
        }
    }
}
