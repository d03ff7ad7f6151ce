import KindredMessages

/// An event as one viewer stands with it, read in the statement that reads the event.
struct ViewedEvent: Sendable, Equatable {
    var event: EventRecord
    /// The viewer is among its attendees.
    var joined: Bool
    /// It has at least one media item.
    var hasMedia: Bool
    /// The viewer may see it: they organize it, or it is public or theirs through friendship or an
    /// invitation, and there is no block between them and its organizer.
    var visible = true
    /// Reported by `ReportTally.filterThreshold` people: filtered for everyone but its organizer.
    var reported = false
    /// The viewer follows its organizer, which spares a minor's join the guardian's approval.
    var followsOrganizer = false
    /// Some media item is flagged: a viewer who filters content may have some withheld.
    var hasFlaggedMedia = false

    /// The event as the API shows it to the viewer, with `media` (its items as the viewer stands with them).
    func proto(media: [EventMedia], filtering: Bool) -> Kindred_Social_V1_SocialEvent {
        var proto = event.proto
        (proto.media, proto.hiddenMediaIds) = media.shown(filtering: filtering)
        proto.joined = joined
        return proto
    }
}
