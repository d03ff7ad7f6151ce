import KindredMessages

/// The toggles of family's controls that events obey; each applies only while the controls are active.
extension Kindred_Family_V1_ParentalControls {
    /// Mature events and flagged media are hidden.
    var filtersContent: Bool { active && contentFiltering }
    /// Only private events may be created.
    var restrictsPublicEvents: Bool { active && publicEventsRestricted }
    /// Joining an event of someone not followed needs a guardian's approval.
    var requiresJoinApproval: Bool { active && eventJoinApprovalRequired }
}
