import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `gamification.baby_name_suggestions` and `gamification.baby_name_likes`.
enum BabyNameSuggestionStore {
    /// `profile`'s suggestions as `reader` sees them, most liked first, then the oldest: all of them, the one
    /// named `id`, or those taking `name` (folded) or the reader's slot for `gender`. A profile holds at most two
    /// per member, so one statement with optional filters reads a short range of its key.
    private static func read(
        on profile: BabyProfileID, for reader: UserID, id: BabyNameSuggestionID? = nil,
        clashingWith name: String? = nil, gender: Int? = nil, on db: some StatementRunner
    ) async throws -> [(suggestion: Kindred_Gamification_V1_BabyNameSuggestion, sameName: Bool)] {
        try await db.query(
            """
            SELECT coalesce(s.name_key = gamification.name_key(\(name)::text), false), s.suggestion_id::text, s.name, s.gender::int, s.suggested_by::text, s.likes, s.created_at,
                   EXISTS (SELECT 1 FROM gamification.baby_name_likes l
                           WHERE l.profile_id = s.profile_id AND l.suggestion_id = s.suggestion_id
                             AND l.user_id = \(reader))
            FROM gamification.baby_name_suggestions s
            WHERE s.profile_id = \(profile) AND (\(id)::uuid IS NULL OR s.suggestion_id = \(id)::uuid)
              AND (\(name)::text IS NULL OR s.name_key = gamification.name_key(\(name)::text)
                   OR (s.suggested_by = \(reader) AND s.gender = \(gender)::smallint))
            ORDER BY s.likes DESC, s.created_at, s.suggestion_id
            """
        ).map { row in (try suggestion(row), try row.decode(Bool.self, column: 0)) }
    }

    /// Stores a new suggestion; false when the name (folded) or the suggester's slot for the gender is taken.
    static func insert(
        _ id: BabyNameSuggestionID, on profile: BabyProfileID, name: String, gender: Int, by user: UserID,
        at now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        try await tx.query(
            """
            INSERT INTO gamification.baby_name_suggestions
                (profile_id, suggestion_id, suggested_by, gender, name, name_key, created_at)
            VALUES (\(profile), \(id), \(user), \(gender), \(name), gamification.name_key(\(name)), \(now))
            ON CONFLICT DO NOTHING
            """
        ).affectedRows == 1
    }

    /// The suggestions on `profile` that take `name` (folded) or `user`'s slot for `gender`, as `user` sees them,
    /// each with whether it is the same name.
    static func conflicts(
        on profile: BabyProfileID, name: String, gender: Int, by user: UserID, in tx: PostgresTransaction
    ) async throws -> [(suggestion: Kindred_Gamification_V1_BabyNameSuggestion, sameName: Bool)] {
        try await read(on: profile, for: user, clashingWith: name, gender: gender, on: tx)
    }

    /// One suggestion on `profile` as `reader` sees it.
    static func suggestion(
        _ id: BabyNameSuggestionID, on profile: BabyProfileID, for reader: UserID, on db: some StatementRunner
    ) async throws -> Kindred_Gamification_V1_BabyNameSuggestion? {
        try await read(on: profile, for: reader, id: id, on: db).first?.suggestion
    }

    /// Every suggestion on `profile`, most liked first, then the oldest.
    static func suggestions(on profile: BabyProfileID, for reader: UserID, on db: some StatementRunner)
        async throws -> [Kindred_Gamification_V1_BabyNameSuggestion]
    {
        try await read(on: profile, for: reader, on: db).map(\.suggestion)
    }

    /// Records `user`'s like and counts it; nil when there is no such suggestion, false when they liked it.
    static func like(
        _ id: BabyNameSuggestionID, on profile: BabyProfileID, by user: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Bool? {
        let found = try await tx.query(
            """
            SELECT 1 FROM gamification.baby_name_suggestions
            WHERE profile_id = \(profile) AND suggestion_id = \(id) FOR UPDATE
            """)
        guard found.count == 1 else { return nil }
        let liked = try await tx.query(
            """
            INSERT INTO gamification.baby_name_likes (profile_id, suggestion_id, user_id, liked_at)
            VALUES (\(profile), \(id), \(user), \(now)) ON CONFLICT DO NOTHING
            """)
        guard liked.affectedRows == 1 else { return false }
        try await tx.query(
            """
            UPDATE gamification.baby_name_suggestions SET likes = likes + 1
            WHERE profile_id = \(profile) AND suggestion_id = \(id)
            """)
        return true
    }

    /// Deletes one suggestion on `profile` and its likes (an owner removed it); false when there is none.
    static func delete(_ id: BabyNameSuggestionID, on profile: BabyProfileID, in tx: PostgresTransaction)
        async throws -> Bool
    {
        try await tx.query(
            """
            DELETE FROM gamification.baby_name_suggestions WHERE profile_id = \(profile) AND suggestion_id = \(id)
            """
        ).affectedRows == 1
    }

    /// Deletes `user`'s suggestions and takes back their likes (their account is gone).
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            WITH gone AS (
                DELETE FROM gamification.baby_name_likes WHERE user_id = \(user)
                RETURNING profile_id, suggestion_id)
            UPDATE gamification.baby_name_suggestions s SET likes = s.likes - 1
            FROM gone WHERE s.profile_id = gone.profile_id AND s.suggestion_id = gone.suggestion_id
            """)
        try await tx.query("DELETE FROM gamification.baby_name_suggestions WHERE suggested_by = \(user)")
    }

    /// Deletes every suggestion on the profile, their likes with them (family purged the profile); again,
    /// nothing.
    static func purge(_ profile: BabyProfileID, in tx: PostgresTransaction) async throws {
        try await tx.query(
            "DELETE FROM gamification.baby_name_suggestions WHERE profile_id = \(profile)::uuid")
    }

    private static func suggestion(_ row: PostgresRow) throws -> Kindred_Gamification_V1_BabyNameSuggestion {
        let (_, id, name, gender, by, likes, createdAt, likedByMe) = try row.decode(
            (Bool, String, String, Int32, String, Int32, Date, Bool).self)
        return Kindred_Gamification_V1_BabyNameSuggestion(
            suggestionID: id, name: name, gender: .init(rawValue: gender), suggestedByUserID: by,
            likes: likes,
            likedByMe: likedByMe, createdAt: createdAt)
    }
}
