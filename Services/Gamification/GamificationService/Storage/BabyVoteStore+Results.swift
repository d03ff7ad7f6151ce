import KindredHandlers
import KindredMessages
import KindredPostgres

/// The revealed results: read only once `arrival(of:)` says the votes are out.
extension BabyVoteStore {
    /// How many voted each date, each gender and each name (one name counts its spellings together).
    static func tallies(of profile: BabyProfileID, on db: some StatementRunner) async throws
        -> Kindred_Gamification_V1_GetBabyVoteResultsResponse
    {
        let dates = try await db.pureRead(
            """
            SELECT birth_date::text, count(*)::int FROM gamification.baby_votes
            WHERE profile_id = \(profile) AND category = 1
            GROUP BY birth_date ORDER BY count(*) DESC, birth_date
            """)
        let genders = try await db.pureRead(
            """
            SELECT gender::int, count(*)::int FROM gamification.baby_votes
            WHERE profile_id = \(profile) AND category = 2
            GROUP BY gender ORDER BY count(*) DESC, gender
            """)
        let names = try await db.pureRead(
            """
            SELECT (array_agg(name ORDER BY cast_at, user_id))[1], count(*)::int FROM gamification.baby_votes
            WHERE profile_id = \(profile) AND category = 3
            GROUP BY name_key ORDER BY count(*) DESC, min(cast_at), name_key
            """)
        return try Kindred_Gamification_V1_GetBabyVoteResultsResponse(
            birthDateTallies: dates.map { row in
                let (date, votes) = try row.decode((String, Int32).self)
                return .init(birthDate: CalendarDate(iso: date)?.proto, votes: votes)
            },
            genderTallies: genders.map { row in
                let (gender, votes) = try row.decode((Int32, Int32).self)
                return .init(gender: .init(rawValue: gender), votes: votes)
            },
            nameTallies: names.map { row in
                let (name, votes) = try row.decode((String, Int32).self)
                return .init(name: name, votes: votes)
            })
    }

    /// `user`'s own votes on `profile`.
    static func votes(of user: UserID, on profile: BabyProfileID, on db: some StatementRunner) async throws
        -> Kindred_Gamification_V1_BabyOwnVotes
    {
        let rows = try await db.pureRead(
            """
            SELECT birth_date::text, gender::int, name FROM gamification.baby_votes
            WHERE profile_id = \(profile) AND user_id = \(user)
            """)
        var mine = Kindred_Gamification_V1_BabyOwnVotes()
        for row in rows {
            let (date, gender, name) = try row.decode((String?, Int32?, String?).self)
            if let date { mine.birthDate = CalendarDate(iso: date)?.proto }
            if let gender { mine.gender = .init(rawValue: gender) }
            if let name { mine.name = name }
        }
        return mine
    }

    /// The `limit` date votes closest to `birthDate`, closest first, equal distances by user id.
    static func closestGuesses(
        to birthDate: CalendarDate, on profile: BabyProfileID, limit: Int, on db: some StatementRunner
    ) async throws -> [Kindred_Gamification_V1_BabyDateGuess] {
        let rows = try await db.pureRead(
            """
            SELECT user_id::text, birth_date::text, abs(birth_date - \(birthDate.iso)::date)::int AS days_off
            FROM gamification.baby_votes
            WHERE profile_id = \(profile) AND category = 1
            ORDER BY days_off, user_id LIMIT \(limit)
            """)
        return try rows.map { row in
            let (user, date, daysOff) = try row.decode((String, String, Int32).self)
            return .init(userID: user, birthDate: CalendarDate(iso: date)?.proto, daysOff: daysOff)
        }
    }
}
