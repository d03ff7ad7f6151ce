import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL behind the notices of a baby-name suggestion and of its likes.
enum BabyNameNoticeStore {
    /// The suggester's and the profile's names as notices show them, while `profile` is active; nil otherwise.
    static func suggestionNames(
        profile: BabyProfileID, suggester: UserID, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> (suggester: String, profile: String)? {
        try await BabyActivityStore.names(of: suggester, on: profile, seals: seals, in: tx).map {
            (suggester: $0.actor, profile: $0.profile)
        }
    }

    /// The liker's and the profile's names as notices show them, when `suggester` is still a member of
    /// `profile` (still active) and has not switched `BABY_NAME_LIKED` off; nil when nobody is to be told.
    static func noticeNames(
        profile: BabyProfileID, suggester: UserID, liker: UserID, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> (liker: String, profile: String)? {
        let kind = Kindred_Family_V1_NotificationKind.babyNameLiked.rawValue
        let rows = try await tx.query(
            """
            SELECT \(unsafeSQL: BabyActivityStore.nameColumns)
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id
            LEFT JOIN family.profiles a ON a.user_id = \(liker)::uuid
            \(unsafeSQL: BabyActivityStore.namesakeJoin)
            LEFT JOIN family.notification_settings s ON s.user_id = m.user_id
            WHERE m.profile_id = \(profile)::uuid AND m.user_id = \(suggester)::uuid AND p.active
              AND NOT coalesce(s.muted_kinds, '{}') @> ARRAY[\(kind)::smallint]
            """)
        guard let row = rows.first else { return nil }
        let names = try BabyActivityStore.names(row, of: profile, seals: seals)
        return (names.actor, names.profile)
    }
}
