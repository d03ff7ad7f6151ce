import KindredHandlers
import KindredMessages
import KindredRPC

/// `CreateChallenge`, `CreatePopularChallenge` and `JoinPopularChallenge`. A participant's days start at their
/// next local midnight: every day of a challenge is then a whole day of the participant's usage, and no one
/// starts a day with usage they cannot undo.
extension Challenges {
    /// Creates `draft` for `creator`, who takes part from their next local midnight; a retry with the same
    /// request_id returns the first challenge (REQUEST_ID_REUSED when that one had other terms).
    func create(_ draft: ChallengeDraft, by creator: UserID) async throws -> StoredChallenge {
        let now = clock.now
        let id = try await database.transaction { tx in
            let id = try await ChallengeStore.insert(
                draft.challenge(by: creator, popular: false, at: now), requestID: draft.requestID, at: now,
                in: tx)
            try await CoinStore.enroll(creator, in: tx)
            _ = try await ChallengeStore.activate(creator, in: id, at: now, in: tx)
            return id
        }
        return try await retried(draft, id, for: creator)
    }

    /// Creates the popular challenge `draft` for admin `admin`; a retry returns the first.
    func createPopular(_ draft: ChallengeDraft, by admin: UserID) async throws -> StoredChallenge {
        let now = clock.now
        let id = try await database.transaction { tx in
            try await ChallengeStore.insert(
                draft.challenge(by: admin, popular: true, at: now), requestID: draft.requestID, at: now,
                in: tx)
        }
        return try await retried(draft, id, for: admin)
    }

    /// The challenge stored under `draft`'s request_id, checked to be `draft`'s.
    private func retried(_ draft: ChallengeDraft, _ id: ChallengeID, for user: UserID) async throws
        -> StoredChallenge
    {
        guard let stored = try await ChallengeStore.challenge(id, for: user, on: database) else {
            throw GamificationError.challengeNotFound
        }
        guard stored.appID == draft.appID, stored.dailyLimitMinutes == draft.dailyLimitMinutes,
            stored.durationDays == draft.durationDays, stored.name == draft.name
        else { throw GamificationError.requestIDReused }
        return stored
    }

    /// Makes `user` take part in popular challenge `id` from their next local midnight; joining again returns
    /// their part as it is. CHALLENGE_NOT_FOUND for no such challenge, NOT_A_POPULAR_CHALLENGE for a challenge
    /// among friends the caller takes part in (one they do not is not found).
    func join(_ id: ChallengeID, as user: UserID) async throws -> StoredChallenge {
        guard let challenge = try await ChallengeStore.challenge(id, for: user, on: database) else {
            throw GamificationError.challengeNotFound
        }
        guard challenge.popular else {
            throw challenge.part == nil ? GamificationError.challengeNotFound : GamificationError.notPopular
        }
        if challenge.part != nil { return challenge }
        let now = clock.now
        try await database.transaction { tx in
            try await CoinStore.enroll(user, in: tx)
            _ = try await ChallengeStore.activate(user, in: id, at: now, in: tx)
        }
        return try await visible(id, to: user)
    }

    /// `id` as `user` may see it: a popular challenge, or one they have a part in; otherwise
    /// CHALLENGE_NOT_FOUND, as for an id that names nothing.
    func visible(_ id: ChallengeID, to user: UserID) async throws -> StoredChallenge {
        guard let challenge = try await ChallengeStore.challenge(id, for: user, on: database),
            challenge.popular || challenge.part != nil
        else { throw GamificationError.challengeNotFound }
        return challenge
    }
}
