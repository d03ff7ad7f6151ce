import KindredHandlers
import KindredMessages
import KindredPostgres

/// Followers' votes on a baby's birth date, gender and name. Secret until family's `baby.arrived`: before it,
/// no call returns a vote or a tally, whoever asks (owner, admin, the voter); after it, the profile's members
/// read the tallies, their own votes and the closest date guesses. Before it the owners may end the vote (no
/// more votes) or reset it (every vote deleted unread), learning nothing of the votes either way. Membership
/// is asked of family each time (cached briefly), never assumed.
struct BabyVotes: Sendable {
    /// How many of the closest date guesses the results list.
    static let closestGuessCount = 10

    let context: GamificationContext

    /// Records `voter`'s vote, replacing their earlier one in its category. Strangers get the answer an unknown
    /// profile gets; owners are refused; after the reveal, VOTING_CLOSED.
    func cast(_ vote: BabyVote, on profile: BabyProfileID, by voter: UserID) async throws {
        switch try await context.babyMembers.role(of: voter, in: profile) {
        case nil: throw GamificationError.babyProfileNotFound
        case .owner: throw GamificationError.babyProfileFollowersOnly
        case .follower: break
        }
        let now = context.clock.now
        let open = try await context.database.transaction { tx in
            try await BabyVoteStore.cast(vote, by: voter, on: profile, at: now, in: tx)
        }
        guard open else {
            let revealed = try await BabyVoteStore.isRevealed(profile, on: context.database)
            throw revealed ? GamificationError.votingClosed : GamificationError.votingEnded
        }
    }

    /// `owner` ends the vote before the arrival: no vote after it, the votes cast stay secret until the
    /// reveal. Ending it again changes nothing.
    func end(on profile: BabyProfileID, by owner: UserID) async throws {
        try await context.babyMembers.requireOwner(owner, of: profile)
        let now = context.clock.now
        let ended = try await context.database.transaction { tx in
            try await BabyVoteStore.end(profile, at: now, in: tx)
        }
        guard ended else { throw GamificationError.votesAlreadyRevealed }
    }

    /// `owner` resets the vote before the arrival: every vote is deleted unread, and voting is open again.
    func reset(on profile: BabyProfileID, by owner: UserID) async throws {
        try await context.babyMembers.requireOwner(owner, of: profile)
        let reset = try await context.database.transaction { tx in
            try await BabyVoteStore.reset(profile, in: tx)
        }
        guard reset else { throw GamificationError.votesAlreadyRevealed }
    }

    /// The revealed results for a member; VOTES_NOT_REVEALED for every member until the arrival.
    func results(of profile: BabyProfileID, for reader: UserID) async throws
        -> Kindred_Gamification_V1_GetBabyVoteResultsResponse
    {
        guard try await context.babyMembers.role(of: reader, in: profile) != nil else {
            throw GamificationError.babyProfileNotFound
        }
        let database = context.database
        guard let arrival = try await BabyVoteStore.arrival(of: profile, seals: seals, on: database) else {
            throw GamificationError.votesNotRevealed
        }
        var results = try await BabyVoteStore.tallies(of: profile, on: database)
        results.arrival = arrival.proto
        results.myVotes = try await BabyVoteStore.votes(of: reader, on: profile, on: database)
        if let birthDate = arrival.birthDate {
            results.closestDateGuesses = try await BabyVoteStore.closestGuesses(
                to: birthDate, on: profile, limit: Self.closestGuessCount, on: database)
        }
        return results
    }

    /// Closes and reveals the votes of the profile `arrival` names, in the consumer's transaction.
    func reveal(_ arrival: BabyArrival, in tx: PostgresTransaction) async throws {
        try await BabyVoteStore.reveal(arrival, at: context.clock.now, seals: seals, in: tx)
    }

    /// The revealed birth date and name are sealed under gamification's data keys, as usage sessions are.
    private var seals: BabyGameSeals { BabyGameSeals(cipher: context.usageSessions.cipher) }
}
