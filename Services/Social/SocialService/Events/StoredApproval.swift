import KindredMessages

/// A guardian approval request in the family service, as social keeps its id and last known state.
struct StoredApproval: Sendable, Equatable {
    let id: ApprovalID
    var state: ApprovalState
}

/// Where a guardian approval stands; social stores `kindred.family.v1.ApprovalState`'s numbers.
enum ApprovalState: Int, Sendable {
    case pending = 1
    case approved = 2
    case denied = 3

    /// The state family answered; an unknown one is still pending, since nobody approved anything.
    init(_ proto: Kindred_Family_V1_ApprovalState) {
        switch proto {
        case .approved: self = .approved
        case .denied: self = .denied
        case .pending, .unspecified, .unrecognized: self = .pending
        }
    }
}
