import FoundationEssentials
import KindredMail

/// The guardian mails of the notifications part: an alert per social event about a minor, and the weekly
/// summary. Subjects name the minor by username only (text from events, such as an event's title, could
/// hold anything and stays in the body).
extension FamilyMail {
    /// The mail telling a guardian about `alert`.
    func guardianAlert(_ alert: GuardianAlert, minorName: String, to email: String) throws -> MailMessage {
        let (kind, subject, details): (String, String, String)
        switch alert.activity {
        case .newContact(let sender):
            kind = "guardian_new_contact"
            subject = "\(minorName) has a new contact on Kindred"
            details =
                "\(minorName) received a message from @\(sender), someone they had not talked with before."
        case .joinedPublicEvent(let title, let place, let startsAt):
            kind = "guardian_event_joined"
            subject = "\(minorName) joined a public event on Kindred"
            details = """
                \(minorName) joined a public event:

                  Event: \(title)
                  Place: \(place.isEmpty ? "not given" : place)
                  Time:  \(startsAt.map(Self.utcText) ?? "not given")
                """
        case .contentReported(let contentKind, let reason, let count):
            kind = "guardian_content_reported"
            subject = "Safety alert: \(minorName)'s content was reported on Kindred"
            details = """
                Someone reported \(GuardianAlert.describe(contentKind)) by \(minorName)\(GuardianAlert.reporters(count)).

                  Reason given: \(reason.isEmpty ? "none" : reason)
                """
        }
        let footer =
            alert.isSafetyAlert
            ? "Safety alerts go to every guardian, whatever their notification settings."
            : "You can turn these activity alerts off in the app's notification settings."
        return try MailMessage(
            to: email, subject: subject,
            body: """
                Hello,

                \(details)

                You get this email because you are \(minorName)'s guardian on Kindred. \(footer)
                """,
            kind: kind)
    }

    /// The weekly summary of `minors`' activity in `week`, for one guardian.
    func weeklySummary(to email: String, week: SummaryWeek, minors: [MinorWeek]) throws -> MailMessage {
        let lines = minors.map { minor in
            "  \(minor.name): \(Self.count(minor.newContacts, "new contact")), "
                + "\(Self.count(minor.eventsJoined, "public event")) joined, "
                + "\(Self.count(minor.reports, "report")) of their content"
        }
        return try MailMessage(
            to: email, subject: "Your Kindred weekly summary for the week of \(Self.dayText(week.start))",
            body: """
                Hello,

                Here is the week from \(Self.dayText(week.start)) to \(Self.dayText(week.end - 86_400)) (UTC) \
                of the children you guard on Kindred:

                \(lines.joined(separator: "\n"))

                You can turn the weekly summary off in the app's notification settings.
                """,
            kind: "weekly_summary")
    }

    /// "2026-11-23 18:30 UTC".
    static func utcText(_ date: Date) -> String {
        let iso = date.formatted(.iso8601)
        return "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5)) UTC"
    }

    /// "2026-11-23", the UTC day.
    static func dayText(_ date: Date) -> String {
        String(date.formatted(.iso8601).prefix(10))
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}
