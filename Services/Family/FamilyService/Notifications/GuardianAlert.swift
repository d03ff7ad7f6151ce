import FoundationEssentials
import KindredEvents
import KindredHandlers
import KindredMessages

/// What a social event about a minor tells their guardians: a new contact or a public event joined (activity
/// alerts, which a guardian may turn off), or reported content (a safety alert, always sent).
struct GuardianAlert: Sendable, Equatable {
    enum Activity: Sendable, Equatable {
        case newContact(senderUsername: String)
        case joinedPublicEvent(title: String, place: String, startsAt: Date?)
        case contentReported(kind: Kindred_Social_V1_ContentKind, reason: String, reportCount: Int32)
    }

    let minorID: UserID
    let activity: Activity
    let occurredAt: Date
    /// Names the event (`social:<cursor>:<type>`): the minor's activity row and every notice it posts carry
    /// it, so handling the event again changes nothing.
    let eventKey: String

    /// The alert `event` raises; nil for an event family does not act on, or one naming no minor.
    init?(_ event: Kindred_Social_V1_Event, receivedAt now: Date) {
        let minorID: String
        switch event.payload {
        case .messageNewContact(let contact):
            minorID = contact.minorUserID
            activity = .newContact(senderUsername: contact.senderUsername)
        case .eventJoined(let joined):
            minorID = joined.minorUserID
            activity = .joinedPublicEvent(
                title: joined.title, place: joined.place, startsAt: joined.startsAt)
        case .contentReported(let report):
            minorID = report.minorUserID
            activity = .contentReported(
                kind: report.contentKind, reason: report.reason, reportCount: report.reportCount)
        case nil:
            return nil
        }
        guard let minorID = UserID(minorID) else { return nil }
        self.minorID = minorID
        occurredAt = event.occurredAt ?? now
        eventKey = "social:\(event.cursor):\(event.type)"
    }

    /// Reports reach guardians whatever their settings.
    var isSafetyAlert: Bool {
        if case .contentReported = activity { return true }
        return false
    }

    /// The in-app notification's kind, which also names the activity in the weekly summary.
    var kind: Kindred_Family_V1_NotificationKind {
        switch activity {
        case .newContact: .minorNewContact
        case .joinedPublicEvent: .minorJoinedPublicEvent
        case .contentReported: .minorContentReported
        }
    }
}

/// A social event with what its alerts need from identity — the minor's username and each guardian's email —
/// asked before the transaction that applies it, so that no transaction waits on another service.
struct AddressedAlert: SequencedEvent {
    let cursor: Int64
    /// Nil: the event raises no alert, and only its cursor is stored.
    let alert: GuardianAlert?
    /// How mails and notices name the minor.
    let minorName: String
    /// Guardian id → email address; a guardian identity no longer knows gets no mail.
    let emails: [UserID: String]
    /// The social event's trace, which the handler continues.
    var traceparent = ""
}

extension GuardianAlert {
    /// The in-app notification each guardian gets, naming the minor by `minorName`.
    func notice(minorName: String) -> Notice {
        let (title, body): (String, String)
        switch activity {
        case .newContact(let sender):
            title = "\(minorName) has a new contact"
            body = "\(minorName) received a message from @\(sender), someone they had not talked with before."
        case .joinedPublicEvent(let eventTitle, let place, _):
            title = "\(minorName) joined a public event"
            body = "\(minorName) joined \"\(eventTitle)\"" + (place.isEmpty ? "." : " at \(place).")
        case .contentReported(let contentKind, _, let count):
            title = "Safety alert: \(minorName)'s content was reported"
            body =
                "Someone reported \(Self.describe(contentKind)) by \(minorName)" + Self.reporters(count) + "."
        }
        return Notice(kind: kind, title: title, body: body, subjectUserID: minorID, dedupKey: eventKey)
    }

    /// What was reported, in words: "a message".
    static func describe(_ kind: Kindred_Social_V1_ContentKind) -> String {
        switch kind {
        case .user: "a profile"
        case .message: "a message"
        case .event: "an event"
        case .media: "a photo or video"
        case .unspecified, .unrecognized: "content"
        }
    }

    /// How many have reported it, when more than one has.
    static func reporters(_ count: Int32) -> String {
        count > 1 ? " (\(count) people have reported it so far)" : ""
    }
}
