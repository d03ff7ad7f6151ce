import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `gamification.baby_games` and `gamification.baby_votes`: the votes, and whether they are revealed.
enum BabyVoteStore {
    /// Records `user`'s vote, replacing their earlier one in its category; false when the votes of `profile`
    /// are closed (the owners ended them, or they are revealed). The game's row is locked first, so a vote, an
    /// owner's end or reset and the reveal take turns.
    static func cast(
        _ vote: BabyVote, by user: UserID, on profile: BabyProfileID, at now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        let open = try await tx.query(
            """
            INSERT INTO gamification.baby_games (profile_id) VALUES (\(profile))
            ON CONFLICT (profile_id) DO UPDATE SET profile_id = excluded.profile_id
            WHERE gamification.baby_games.revealed_at IS NULL AND gamification.baby_games.ended_at IS NULL
            RETURNING 1
            """)
        guard open.count == 1 else { return false }
        let (date, gender, name): (String?, Int?, String?) =
            switch vote {
            case .birthDate(let date): (date.iso, nil, nil)
            case .gender(let gender): (nil, Int(gender.rawValue), nil)
            case .name(let name): (nil, nil, name)
            }
        try await tx.query(
            """
            INSERT INTO gamification.baby_votes
                (profile_id, category, user_id, birth_date, gender, name, name_key, cast_at)
            VALUES (\(profile), \(vote.category), \(user), \(date)::date, \(gender),
                    \(name), gamification.name_key(\(name)), \(now))
            ON CONFLICT (profile_id, category, user_id) DO UPDATE
            SET birth_date = excluded.birth_date, gender = excluded.gender, name = excluded.name,
                name_key = excluded.name_key, cast_at = excluded.cast_at
            WHERE (baby_votes.birth_date, baby_votes.gender, baby_votes.name)
                IS DISTINCT FROM (excluded.birth_date, excluded.gender, excluded.name)
            """)
        return true
    }

    /// Closes and reveals `profile`'s votes with what the owners announced, the birth date and name sealed
    /// (`BabyGameSeals`); a second announcement (a replayed event) changes nothing.
    static func reveal(
        _ arrival: BabyArrival, at now: Date, seals: BabyGameSeals, in tx: PostgresTransaction
    ) async throws {
        let sealed = seals.seal(birthDate: arrival.birthDate, name: arrival.name, of: arrival.profile)
        try await tx.query(
            """
            INSERT INTO gamification.baby_games
                (profile_id, revealed_at, arrival_sealed, baby_gender, announced_at)
            VALUES (\(arrival.profile), \(now), \(sealed)::bytea, \(arrival.gender), \(arrival.announcedAt))
            ON CONFLICT (profile_id) DO UPDATE
            SET revealed_at = excluded.revealed_at, arrival_sealed = excluded.arrival_sealed, birth_date = NULL,
                baby_name = NULL, baby_gender = excluded.baby_gender, announced_at = excluded.announced_at
            WHERE gamification.baby_games.revealed_at IS NULL
            """)
    }

    /// What was announced for `profile`, opened with `seals`; nil while its votes are secret.
    static func arrival(of profile: BabyProfileID, seals: BabyGameSeals, on db: some StatementRunner)
        async throws -> BabyArrival?
    {
        let rows = try await db.pureRead(
            """
            SELECT birth_date::text, baby_name, baby_gender, announced_at, arrival_sealed
            FROM gamification.baby_games
            WHERE profile_id = \(profile) AND revealed_at IS NOT NULL
            """)
        return try rows.first.map { row in
            let (date, name, gender, announcedAt, sealed) = try row.decode(
                (String?, String?, Int, Date?, [UInt8]?).self)
            let opened = try seals.open(plainDate: date, plainName: name, sealed: sealed, of: profile)
            return BabyArrival(
                profile: profile, birthDate: opened.birthDate, name: opened.name, gender: gender,
                announcedAt: announcedAt)
        }
    }

    /// Deletes every vote of `user` (their account is gone).
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM gamification.baby_votes WHERE user_id = \(user)")
    }

    /// Deletes the profile's game and every vote on it (family purged the profile); again, nothing.
    static func purge(_ profile: BabyProfileID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM gamification.baby_votes WHERE profile_id = \(profile)::uuid")
        try await tx.query("DELETE FROM gamification.baby_games WHERE profile_id = \(profile)::uuid")
    }
}
