import KindredHandlers
import KindredMessages
import KindredRPC

/// The toggles of a minor's parental controls, by the names `UpdateParentalControls`' mask uses.
enum ControlToggle: String, CaseIterable, Sendable {
    case messagingFollowedOnly = "messaging_followed_only"
    case publicEventsRestricted = "public_events_restricted"
    case eventJoinApprovalRequired = "event_join_approval_required"
    case contentFiltering = "content_filtering"

    /// The toggle's field in the message.
    var field: WritableKeyPath<Kindred_Family_V1_ParentalControls, Bool> {
        switch self {
        case .messagingFollowedOnly: \.messagingFollowedOnly
        case .publicEventsRestricted: \.publicEventsRestricted
        case .eventJoinApprovalRequired: \.eventJoinApprovalRequired
        case .contentFiltering: \.contentFiltering
        }
    }

    /// The toggles `mask` names, recording a violation of `update_mask` when it names none or anything else.
    static func parse(_ mask: [String], into violations: inout FieldViolations) -> [ControlToggle] {
        if mask.isEmpty { violations.add("update_mask", "must name at least one toggle") }
        let unknown = mask.filter { ControlToggle(rawValue: $0) == nil }
        if !unknown.isEmpty {
            let known = allCases.map(\.rawValue).joined(separator: ", ")
            violations.add(
                "update_mask", "names no toggle: \(unknown.joined(separator: ", ")) (toggles: \(known))")
        }
        return mask.compactMap(ControlToggle.init(rawValue:))
    }
}
