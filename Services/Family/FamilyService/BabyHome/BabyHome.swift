import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `GetHome` and `ListSuggestions`: what the app's home screen shows a member.
struct BabyHome: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let membership: BabyMembership
    let seals: BabySeals

    /// How long an arrival announcement stays at the top of its members' home.
    static let arrivalShownFor: TimeInterval = 30 * 86_400

    /// The arrival announcements of the asked profiles made in the last 30 days and the countdowns of the
    /// profiles `user` follows among them (first page only), then the asked profiles' activity, newest first.
    /// NOT_FOUND for a profile they do not belong to. Two statements side by side on the first page (the
    /// memberships with the countdowns and arrivals; the page, its scope the memberships or, for one profile,
    /// checked in the page's statement), the page alone after it.
    func home(for user: UserID, page: HomePage) async throws -> Kindred_Family_V1_GetHomeResponse {
        let (now, seals, database) = (clock.now, seals, database)
        async let first =
            page.before == nil
            ? BabyHomeStore.memberships(
                of: user, only: page.profile, arrivalsSince: now.addingTimeInterval(-Self.arrivalShownFor),
                seals: seals, on: database) : BabyHomeStore.Memberships()
        var entries = BabyActivityStore.Entries(cipher: seals.cipher)
        let entry = { (row: PostgresRow) in try entries.entry(row) }
        var activity: [Kindred_Family_V1_BabyActivity]
        if let profile = page.profile {
            let read = BabyActivityStore.recent(
                .profiles([profile]), before: page.before, limit: page.size + 1)
            guard
                let member = try await BabyMemberStore.readAsMember(
                    read, readBy: user, of: profile, on: database, row: entry)
            else { throw FamilyError.babyProfileNotFound }
            activity = member.rows
        } else {
            let read = BabyActivityStore.recent(
                .memberships(of: user), before: page.before, limit: page.size + 1)
            activity = try await BabyMemberStore.read(read, on: database, row: entry)
        }
        let home = try await first
        let more = activity.count > page.size
        activity = Array(activity.prefix(page.size))
        return Kindred_Family_V1_GetHomeResponse(
            countdowns: home.due.compactMap { BabyCountdown.of($0, at: now) },
            activity: activity,
            page: Kindred_Common_V1_PageResponse(
                nextPageToken: more ? page.nextToken(after: activity[activity.count - 1].activityID) : ""),
            arrivals: home.arrivals.map(\.proto))
    }

    /// The catalogue's suggestions for `profile`'s baby by stage: the stages `asked` names (every stage, one,
    /// or the baby's current one, which needs the expected birth date). Owners only.
    func suggestions(for user: UserID, profile: BabyProfileID, asked: SuggestionStages) async throws
        -> Kindred_Family_V1_ListSuggestionsResponse
    {
        try await membership.requireOwner(user, of: profile)
        let inputs = try await BabyHomeStore.stageInputs(of: profile, seals: seals, on: database)
        let current = inputs.due.map { BabyStage.of(due: $0, at: clock.now) }
        let stages: [BabyStage]
        switch asked {
        case .all: stages = BabyStage.catalogued
        case .one(let stage): stages = [stage]
        case .current:
            guard let current else { throw FamilyError.expectedBirthDateRequired }
            stages = [current]
        }
        let rows = try await BabyHomeStore.suggestions(
            stages: stages.map { Int($0.rawValue) }, gender: inputs.gender, on: database)
        return Kindred_Family_V1_ListSuggestionsResponse(
            stage: stages.count == 1 ? stages[0] : current ?? .unspecified,
            suggestions: rows.map {
                Kindred_Family_V1_Suggestion(
                    suggestionKey: $0.key, type: Kindred_Family_V1_SuggestionType(rawValue: $0.type),
                    title: $0.title, description: $0.description, stage: BabyStage(rawValue: $0.stage))
            },
            catalogueVersion: rows.first?.version ?? 0)
    }
}
