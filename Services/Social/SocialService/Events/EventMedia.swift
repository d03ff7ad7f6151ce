import KindredHandlers
import KindredMessages

/// One media item of an event as one viewer stands with it: whether enough people reported it, and the
/// viewer's own approval to see it if they asked for one.
struct EventMedia: Sendable, Equatable {
    let id: MediaID
    let eventID: EventID
    let url: String
    let contentType: String
    let flagged: Bool
    /// Reported by `ReportTally.filterThreshold` people: hidden for everyone, whatever anyone approved.
    let reported: Bool
    /// The viewer's guardian approval to see it, as social last learned it.
    var approval: StoredApproval?

    /// Withheld from this viewer as flagged: they filter content and no guardian approved it for them.
    func isHidden(filtering: Bool) -> Bool {
        flagged && filtering && approval?.state != .approved
    }

    /// Flagged, not filtered for everyone, and the viewer's approval waits for a guardian who may have decided
    /// since social last asked.
    var awaitsDecision: Bool { flagged && !reported && approval?.state == .pending }

    var proto: Kindred_Social_V1_Media {
        Kindred_Social_V1_Media(mediaID: id.description, url: url, contentType: contentType, flagged: flagged)
    }
}

extension [EventMedia] {
    /// What `filtering` lets a viewer see of these items, in order: reported ones are left out for everyone,
    /// hidden flagged ones are named by id only.
    func shown(filtering: Bool) -> (media: [Kindred_Social_V1_Media], hiddenIDs: [String]) {
        let present = filter { !$0.reported }
        return (
            present.filter { !$0.isHidden(filtering: filtering) }.map(\.proto),
            present.filter { $0.isHidden(filtering: filtering) }.map(\.id.description)
        )
    }
}
