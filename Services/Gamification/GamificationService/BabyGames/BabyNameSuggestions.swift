import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// Names the members of a baby profile suggest and like. At most one suggestion per person per gender, and
/// one per name on a profile ignoring case, accents and spacing; a member likes a suggestion once. Each new
/// suggestion is a `baby_name.suggested` event, and each like of someone else's suggestion a `baby_name.liked`
/// event, in the transaction that stores it: family consumes gamification's events and notifies the owners or
/// the suggester, so nothing is lost between two services and gamification needs no write access to anyone's
/// inbox.
struct BabyNameSuggestions: Sendable {
    let context: GamificationContext

    /// Stores `name` for `gender` by `member`, announced as `baby_name.suggested`; the same suggestion again
    /// returns it and announces nothing.
    func suggest(_ name: String, gender: Int, on profile: BabyProfileID, by member: UserID) async throws
        -> Kindred_Gamification_V1_BabyNameSuggestion
    {
        try await requireMember(member, of: profile)
        let now = context.clock.now
        let id = BabyNameSuggestionID.generate(at: now)
        return try await context.database.transaction { tx in
            if try await BabyNameSuggestionStore.insert(
                id, on: profile, name: name, gender: gender, by: member, at: now, in: tx),
                let stored = try await BabyNameSuggestionStore.suggestion(
                    id, on: profile, for: member, on: tx)
            {
                let event = Kindred_Gamification_V1_Event(
                    payload: .babyNameSuggested(
                        .init(
                            profileID: profile.description, suggestionID: stored.suggestionID,
                            name: stored.name,
                            gender: stored.gender, suggestedByUserID: stored.suggestedByUserID)))
                try await GamificationEvents.outbox.append(
                    type: "baby_name.suggested", payload: try event.serializedBytes(),
                    sealedWith: context.cipher,
                    in: tx)
                return stored
            }
            let clashes = try await BabyNameSuggestionStore.conflicts(
                on: profile, name: name, gender: gender, by: member, in: tx)
            let mine = clashes.first {
                $0.suggestion.suggestedByUserID == member.description
                    && Int($0.suggestion.gender.rawValue) == gender
            }
            if let mine, mine.sameName { return mine.suggestion }  // a retry
            if let named = clashes.first(where: \.sameName) {
                throw GamificationError.nameAlreadySuggested(named.suggestion)
            }
            guard let mine else { throw GamificationError.suggestionRaced }
            throw GamificationError.oneNamePerGender(mine.suggestion)
        }
    }

    /// Every suggestion on `profile`, for a member.
    func suggestions(on profile: BabyProfileID, for member: UserID) async throws
        -> [Kindred_Gamification_V1_BabyNameSuggestion]
    {
        try await requireMember(member, of: profile)
        return try await BabyNameSuggestionStore.suggestions(on: profile, for: member, on: context.database)
    }

    /// `member` likes the suggestion; liking it again changes nothing.
    func like(_ id: BabyNameSuggestionID, on profile: BabyProfileID, by member: UserID) async throws
        -> Kindred_Gamification_V1_BabyNameSuggestion
    {
        try await requireMember(member, of: profile)
        let now = context.clock.now
        return try await context.database.transaction { tx in
            guard
                let liked = try await BabyNameSuggestionStore.like(
                    id, on: profile, by: member, at: now, in: tx),
                let suggestion = try await BabyNameSuggestionStore.suggestion(
                    id, on: profile, for: member, on: tx)
            else { throw GamificationError.suggestionNotFound }
            if liked && suggestion.suggestedByUserID != member.description {
                let event = Kindred_Gamification_V1_Event(
                    payload: .babyNameLiked(
                        .init(
                            profileID: profile.description, suggestionID: suggestion.suggestionID,
                            name: suggestion.name, suggestedByUserID: suggestion.suggestedByUserID,
                            likedByUserID: member.description, likes: suggestion.likes)))
                try await GamificationEvents.outbox.append(
                    type: "baby_name.liked", payload: try event.serializedBytes(), sealedWith: context.cipher,
                    in: tx)
            }
            return suggestion
        }
    }

    /// `owner` removes a suggestion on their profile, and its likes; SUGGESTION_NOT_FOUND when there is none.
    func delete(_ id: BabyNameSuggestionID, on profile: BabyProfileID, by owner: UserID) async throws {
        try await context.babyMembers.requireOwner(owner, of: profile)
        let deleted = try await context.database.transaction { tx in
            try await BabyNameSuggestionStore.delete(id, on: profile, in: tx)
        }
        guard deleted else { throw GamificationError.suggestionNotFound }
    }

    private func requireMember(_ user: UserID, of profile: BabyProfileID) async throws {
        guard try await context.babyMembers.role(of: user, in: profile) != nil else {
            throw GamificationError.babyProfileNotFound
        }
    }
}
