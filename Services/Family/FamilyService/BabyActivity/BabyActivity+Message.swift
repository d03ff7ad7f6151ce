import FoundationEssentials
import KindredHandlers
import KindredMessages

extension Kindred_Family_V1_BabyActivity {
    /// `entry` as recorded: activity `id` of `actorName`, at `now`.
    init(_ entry: BabyActivityEntry, id: BabyActivityID, actorName: String, at now: Date) {
        self.init(
            profileID: entry.profile.description, activityID: id.description,
            kind: Kindred_Family_V1_BabyActivityKind(rawValue: Int32(entry.kind.rawValue)),
            actorID: entry.actor.description, actorName: actorName,
            subjectID: entry.subject?.uuidString.lowercased() ?? "", detail: entry.detail,
            occurredAt: now)
    }
}
