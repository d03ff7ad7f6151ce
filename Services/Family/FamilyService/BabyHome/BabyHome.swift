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
    /// NOT_FOUND for a profile they do not belong to.
    func home(for user: UserID, page: HomePage) async throws -> Kindred_Family_V1_GetHomeResponse {
        let memberships: [(profile: BabyProfileID, role: BabyRole)]
        // The countdowns, when known before the page's reads: none after the first page; with all the
        // caller's profiles, read with the memberships.
        var known: [BabyHomeStore.Due]? = page.before == nil ? nil : []
        if let profile = page.profile {
            memberships = [(profile, try await membership.requireMember(user, of: profile))]
        } else {
            let all = try await BabyHomeStore.memberships(of: user, seals: seals, on: database)
            memberships = all.memberships
            known = known ?? all.due
        }
        let now = clock.now
        let followed = memberships.filter { $0.role == .follower }.map(\.profile)
        async let read =
            known == nil && !followed.isEmpty ? BabyHomeStore.due(followed, seals: seals, on: database) : []
        async let recent =
            memberships.isEmpty
            ? []
            : BabyActivityStore.recent(
                of: memberships.map(\.profile), before: page.before, limit: page.size + 1,
                cipher: seals.cipher, on: database)
        async let arrivals =
            page.before == nil && !memberships.isEmpty
            ? ArrivalStore.arrivals(
                of: memberships.map(\.profile), since: now.addingTimeInterval(-Self.arrivalShownFor),
                readBy: user, seals: seals, on: database) : []
        let due = if let known { known } else { try await read }
        var activity = try await recent
        let more = activity.count > page.size
        activity = Array(activity.prefix(page.size))
        return Kindred_Family_V1_GetHomeResponse(
            countdowns: due.compactMap { BabyCountdown.of($0, at: now) },
            activity: activity,
            page: Kindred_Common_V1_PageResponse(
                nextPageToken: more ? page.nextToken(after: activity[activity.count - 1].activityID) : ""),
            arrivals: try await arrivals.map(\.proto))
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
