import KindredHandlers
import KindredMessages
import KindredPostgres

/// `ReportContent`: checking what is reported, counting the reporter once, and telling a minor's guardians.
extension Reports {
    /// Files `report` by `reporter` and answers where the content stands. A repeat by the same reporter, even
    /// a concurrent retry, changes nothing and emits nothing. Only content the reporter may see can be
    /// reported, by the rule its reads apply: anyone else is answered as for an id that names nothing, and
    /// nothing is counted, so a stranger neither learns that private content exists nor filters it.
    func file(_ report: ContentReport, by reporter: UserID) async throws -> ReportOutcome {
        let owner = try await owner(of: report, reportedBy: reporter)
        let now = clock.now
        return try await database.transaction { tx in
            let (reporters, isNew) = try await ReportStore.record(report, by: reporter, at: now, in: tx)
            if isNew && owner.minor {
                try await tellGuardians(of: owner, about: report, reporters: reporters, in: tx)
            }
            return ReportOutcome(reporters: reporters)
        }
    }

    /// The person whose content `report` names, once it is known to exist and to be the reporter's to see:
    /// the user reported, a message's sender, an event's (or its media's) organizer.
    private func owner(of report: ContentReport, reportedBy reporter: UserID) async throws -> Person {
        // The report's kind says what its content id names.
        let content = report.contentID.uuid
        let ownerID: UserID? =
            switch report.kind {
            case .user: UserID(content)
            case .message: try await messageSender(MessageID(content), seenBy: reporter)
            case .event:
                try await ReportStore.eventOrganizer(EventID(content), seenBy: reporter, on: database)
            case .media:
                try await ReportStore.mediaOrganizer(MediaID(content), seenBy: reporter, on: database)
            }
        guard let ownerID else { throw SocialError.contentNotFound }
        guard ownerID != reporter else { throw SocialError.reportingYourself }
        if report.kind == .user {
            // Whom a user blocked is answered as if they did not exist, as by every other part; the blocker
            // still sees the people they blocked (`ListBlockedUsers`) and may report them.
            let relationship = try await RelationshipStore.between(reporter, ownerID, on: database)
            if relationship.blockedBy { throw SocialError.userNotFound }
        }
        // USER_NOT_FOUND for a user identity has no account of; content owners were met when they made it.
        return try await people.person(ownerID)
    }

    /// The sender of message `id` when `reporter` may read its conversation (theirs, with nobody blocked
    /// either way), as `ListMessages` decides.
    private func messageSender(_ id: MessageID, seenBy reporter: UserID) async throws -> UserID? {
        guard let message = try await ReportStore.message(id, on: database),
            try await MessageStore.mayRead(message.conversation, reporter, on: database)
        else { return nil }
        return message.sender
    }

    /// `content.reported`, in the report's transaction: family emails the minor's guardians.
    private func tellGuardians(
        of minor: Person, about report: ContentReport, reporters: Int, in tx: PostgresTransaction
    ) async throws {
        let reported = Kindred_Social_V1_ContentReported(
            minorUserID: minor.id.description, contentKind: report.kind.proto,
            contentID: report.contentID.description,
            reason: report.reason, reportCount: Int32(reporters))
        try await SocialEvents.outbox.append(
            type: "content.reported",
            payload: try Kindred_Social_V1_Event(payload: .contentReported(reported)).serializedBytes(),
            sealedWith: cipher, in: tx)
    }
}
