import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.baby_activity`: a profile's recent activity.
enum BabyActivityStore {
    /// The INSERT of `entry` as activity `id`, its detail sealed (`ActivityDetails`), for `record`.
    static func insert(_ entry: BabyActivityEntry, id: BabyActivityID, at now: Date, seals: BabySeals)
        -> PostgresQuery
    {
        let detail = ActivityDetails.sealed(with: seals.cipher).seal(
            entry.detail, of: ActivityDetails.Key(profile: entry.profile, activity: id))
        return """
            INSERT INTO family.baby_activity
                (profile_id, activity_id, kind, actor_id, subject_id, detail_sealed, occurred_at)
            VALUES (\(entry.profile)::uuid, \(id)::uuid, \(entry.kind.rawValue)::smallint, \(entry.actor)::uuid,
                    \(entry.subject?.uuidString)::uuid, \(detail)::bytea, \(now))
            """
    }

    /// The twelve columns `names(_:of:seals:)` decodes, read from the person `a` (`family.profiles`), the profile
    /// `p` and its namesake `c` (`namesakeJoin`): every statement that reads names for notices selects these.
    static let nameColumns = """
        coalesce(a.display_name, ''), coalesce(a.first_name, ''), coalesce(a.last_name, ''), p.name, p.name_sealed, \
        coalesce(c.last_name, ''), a.user_id, a.first_name_sealed, a.user_id, a.last_name_sealed, c.user_id, \
        c.last_name_sealed
        """

    /// Joins the profile `p`'s namesake (the father, else the creator) as `c`.
    static let namesakeJoin =
        "LEFT JOIN family.profiles c ON c.user_id = family.baby_namesake(p.profile_id, p.created_by)"

    /// A person's and `profile`'s names as notices show them, from a row's twelve columns: the person's
    /// display, first and last name, the profile's name (plaintext from before sealing, or sealed) and its
    /// namesake's (the father's, else the creator's) last name, then the person's id and sealed first name, id
    /// and sealed last name, the namesake's id and sealed last name (`ProfileStore.name`).
    static func names(_ row: PostgresRow, of profile: BabyProfileID, seals: BabySeals) throws
        -> (actor: String, profile: String)
    {
        let people = seals.names
        let (plainName, sealedName) = (
            try row.decode(String?.self, column: 3), try row.decode([UInt8]?.self, column: 4)
        )
        let name = try seals.open(plain: plainName, sealed: sealedName, .name, of: profile)
        return (
            BabyNames.person(
                displayName: try row.decode(String.self, column: 0),
                firstName: try ProfileStore.name(row, plain: 1, user: 6, people.first),
                lastName: try ProfileStore.name(row, plain: 2, user: 8, people.last)),
            BabyNames.profile(
                name: name, namesakeLastName: try ProfileStore.name(row, plain: 5, user: 10, people.last))
        )
    }

    /// The profiles a page of activity covers.
    enum Scope: Sendable {
        /// These profiles (one named profile, inside `BabyMemberStore.readAsMember`).
        case profiles([BabyProfileID])
        /// Every active profile the user belongs to, read in the page's statement.
        case memberships(of: UserID)

        /// A FROM item `s` with one `profile_id` per profile.
        fileprivate var source: PostgresQuery {
            switch self {
            case .profiles(let profiles): "unnest(\(PostgresArray(profiles))::uuid[]) AS s(profile_id)"
            case .memberships(let user): "(\(BabyMemberStore.activeProfiles(of: user))) s"
            }
        }
    }

    /// Up to `limit` entries of the profiles of `scope` before `before` (all when nil), newest first: one
    /// backward range of the (profile_id, activity_id) key per profile, each cut at `limit`, merged by activity
    /// id, so a page costs the same however long the history; the names are joined to the page's entries only.
    /// `Entries` decodes its rows.
    static func recent(_ scope: Scope, before: BabyActivityID?, limit: Int) -> PostgresQuery {
        """
        SELECT a.profile_id, a.activity_id, a.kind, a.actor_id, coalesce(n.display_name, ''),
            coalesce(n.first_name, ''), coalesce(n.last_name, ''), coalesce(a.subject_id::text, ''), a.detail, a.occurred_at,
            a.detail_sealed, n.user_id, n.first_name_sealed, n.user_id, n.last_name_sealed
        FROM (
            SELECT r.* FROM \(scope.source)
            CROSS JOIN LATERAL (
                SELECT * FROM family.baby_activity a
                WHERE a.profile_id = s.profile_id
                  AND (\(before)::uuid IS NULL OR a.activity_id < \(before)::uuid)
                ORDER BY a.activity_id DESC LIMIT \(limit)) r
            ORDER BY r.activity_id DESC LIMIT \(limit)) a
        LEFT JOIN family.profiles n ON n.user_id = a.actor_id
        ORDER BY a.activity_id DESC
        """
    }
}
