import FoundationEssentials
import KindredHandlers
import KindredPostgres
import KindredRuntime
import Logging

/// The weekly summary: once a week each guardian (with the summary on) gets one email counting each guarded
/// minor's activity of the week before — new contacts, public events joined, reports of their content. Every
/// instance sweeps hourly; the guardian's week is claimed in the transaction that queues the mail, so exactly
/// one mail goes out however many instances sweep, and a failed sweep leaves the week to the next one.
struct WeeklySummaries: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    let identity: IdentityDirectory
    let logger: Logger

    /// Guardians read per query.
    static let batch = 100
    /// How long activity is kept: the week summarized, and a margin for a sweep that runs late.
    static let activityRetention: TimeInterval = 5 * 7 * 86_400
    /// A push message no provider took in this time is dropped: a late push is worse than none.
    static let pushRetention: TimeInterval = 86_400

    init(context: FamilyContext) {
        database = context.database
        clock = context.clock
        mail = context.mail
        identity = context.identity
        logger = context.logger
    }

    /// Sends the summary of the last complete week to every guardian who has not had it; returns how many
    /// mails were queued. Throws when identity or PostgreSQL fails: the guardians left are due next time.
    func sweep() async throws -> Int {
        let week = SummaryWeek(containing: clock.now).previous
        var sent = 0
        var after = UserID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        while true {
            let due = try await WeeklySummaryStore.dueGuardians(
                of: week, after: after, limit: Self.batch, on: database)
            for guardian in due {
                if try await summarize(week, for: guardian) { sent += 1 }
            }
            guard due.count == Self.batch, let last = due.last else { return sent }
            after = last
        }
    }

    /// Sweeps hourly until the drain, and forgets what is too old to matter.
    func run() async {
        await runHourly("weekly summary sweep", logger: logger) {
            let sent = try await sweep()
            if sent > 0 { logger.info("weekly summaries sent", metadata: ["mails": "\(sent)"]) }
            let now = clock.now
            try await WeeklySummaryStore.forgetActivity(before: now - Self.activityRetention, on: database)
            try await PushDeviceStore.dropMessages(queuedBefore: now - Self.pushRetention, on: database)
        }
    }

    /// Claims and mails `guardian`'s summary of `week`; false when another sweep had claimed it. A guardian
    /// identity no longer knows is claimed without a mail, so that no sweep asks again.
    private func summarize(_ week: SummaryWeek, for guardian: UserID) async throws -> Bool {
        let email = try await identity.knownAccount(guardian)?.email
        var names: [UserID: String] = [:]
        let links = try await GuardianLinkStore.links(of: guardian, on: database)
        for minor in links.filter({ $0.guardianID == guardian }).map(\.minorID) {
            names[minor] = try await identity.knownAccount(minor)?.username
        }
        return try await database.transaction { tx in
            guard try await WeeklySummaryStore.claim(guardian, week, at: clock.now, in: tx), let email else {
                return false
            }
            let minors = try await WeeklySummaryStore.counts(for: guardian, in: week, tx).map { counts in
                MinorWeek(
                    name: names[counts.minorID] ?? GuardianAlerts.unknownMinorName,
                    newContacts: counts.newContacts,
                    eventsJoined: counts.eventsJoined, reports: counts.reports)
            }
            try await mail.send(try mail.weeklySummary(to: email, week: week, minors: minors), in: tx)
            return true
        }
    }
}

/// One guarded minor's week, as the summary tells it.
struct MinorWeek: Sendable, Equatable {
    let name: String
    let newContacts: Int
    let eventsJoined: Int
    let reports: Int
}

/// A week from Monday 00:00 UTC to the next.
struct SummaryWeek: Sendable, Equatable {
    let start: Date

    /// The week `instant` falls in.
    init(containing instant: Date) {
        let days = Int((instant.timeIntervalSince1970 / 86_400).rounded(.down))
        // Day 0, 1970-01-01, was a Thursday: three days after a Monday.
        let monday = days - ((days + 3) % 7 + 7) % 7
        start = Date(timeIntervalSince1970: Double(monday) * 86_400)
    }

    /// The instant the week ends (the next week's start).
    var end: Date { start + 7 * 86_400 }

    /// The week before.
    var previous: SummaryWeek { SummaryWeek(containing: start - 86_400) }
}
