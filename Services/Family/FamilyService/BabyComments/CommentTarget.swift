import FoundationEssentials
import KindredHandlers
import KindredMessages

/// What a comment is on: an event, a photo or the arrival announcement of a profile. Stored as
/// `family.baby_comments.target_kind` and `target_id` (the profile's own id for the announcement).
struct CommentTarget: Sendable, Equatable {
    enum Kind: Int, Sendable {
        case calendarEvent = 1
        case photo = 2
        case announcement = 3
    }

    let profile: BabyProfileID
    let kind: Kind
    let id: UUID

    /// The target `proto` names, recording each bad field as `<field>.…` in `violations`; nil then.
    init?(_ proto: Kindred_Family_V1_CommentTarget?, field: String, _ violations: inout FieldViolations) {
        let proto = proto ?? .init()
        let profile: BabyProfileID? = violations.id("\(field).profile_id", proto.profileID)
        var named: (Kind, UUID)?
        switch proto.target {
        case .calendarEventID(let text):
            named = (violations.id("\(field).calendar_event_id", text) as CalendarEventID?).map {
                (.calendarEvent, $0.uuid)
            }
        case .photoID(let text):
            named = (violations.id("\(field).photo_id", text) as PhotoID?).map { (.photo, $0.uuid) }
        case .announcement(true):
            named = profile.map { (.announcement, $0.uuid) }
        case .announcement(false), nil:
            violations.add(field, "must name a calendar event, a photo or the announcement")
        }
        guard let profile, let (kind, id) = named else { return nil }
        self.init(profile: profile, kind: kind, id: id)
    }

    init(profile: BabyProfileID, kind: Kind, id: UUID) {
        self.profile = profile
        self.kind = kind
        self.id = id
    }

    /// The target as the wire carries it.
    var proto: Kindred_Family_V1_CommentTarget {
        let id = self.id.uuidString.lowercased()
        let target: Kindred_Family_V1_CommentTarget.OneOf_Target =
            switch kind {
            case .calendarEvent: .calendarEventID(id)
            case .photo: .photoID(id)
            case .announcement: .announcement(true)
            }
        return Kindred_Family_V1_CommentTarget(profileID: profile.description, target: target)
    }
}
