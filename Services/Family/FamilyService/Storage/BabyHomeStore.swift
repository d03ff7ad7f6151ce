import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of the home screen's countdown and the suggestions: reads of `family.baby_profiles` and
/// `family.baby_suggestions`.
enum BabyHomeStore {
    /// A profile with an expected birth date, as the countdown shows it.
    struct Due: Sendable {
        let profile: BabyProfileID
        let name: String?
        let namesakeLastName: String
        let date: BabyBirthDate

        /// The countdown's order: the soonest first.
        static func soonestFirst(_ a: Due, _ b: Due) -> Bool {
            (a.date.start, a.profile.description) < (b.date.start, b.profile.description)
        }
    }

    /// The active profiles among `profiles` that have an expected birth date, the soonest first. The dates are
    /// sealed, so the countdown's window is applied after the read (`BabyCountdown`): one row per profile
    /// asked, as before.
    static func due(_ profiles: [BabyProfileID], seals: BabySeals, on db: PostgresPool) async throws -> [Due]
    {
        try await db.pureRead(
            """
            SELECT p.profile_id, \(unsafeSQL: dueColumns)
            FROM family.baby_profiles p
            LEFT JOIN family.profiles c ON c.user_id = family.baby_namesake(p.profile_id, p.created_by)
            WHERE p.profile_id = ANY(\(PostgresArray(profiles))::uuid[]) AND p.active
              AND (p.expected_birth_date IS NOT NULL OR p.expected_birth_date_sealed IS NOT NULL)
            """
        ).compactMap { try due($0, seals: seals) }.sorted(by: Due.soonestFirst)
    }

    /// Every active profile `user` belongs to (owned first, then followed, each in the order joined) with their
    /// role, and, of each followed one with an expected birth date, what its countdown shows: the home's
    /// memberships and countdowns in one read.
    static func memberships(of user: UserID, seals: BabySeals, on db: PostgresPool) async throws
        -> (memberships: [(profile: BabyProfileID, role: BabyRole)], due: [Due])
    {
        let counting = """
            m.role = \(BabyRole.follower.rawValue) \
            AND (p.expected_birth_date IS NOT NULL OR p.expected_birth_date_sealed IS NOT NULL)
            """
        // The namesake only of a profile counting down: the function costs a probe per call.
        let rows = try await db.pureRead(
            """
            SELECT m.profile_id, \(unsafeSQL: dueColumns), m.role, \(unsafeSQL: counting)
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            LEFT JOIN family.profiles c
                ON c.user_id = CASE WHEN \(unsafeSQL: counting) THEN family.baby_namesake(p.profile_id, p.created_by) END
            WHERE m.user_id = \(user)::uuid ORDER BY m.role, m.joined_at, m.profile_id
            """)
        var memberships: [(profile: BabyProfileID, role: BabyRole)] = []
        var due: [Due] = []
        for row in rows {
            guard let role = BabyRole(rawValue: try row.decode(Int.self, column: 8)) else { continue }
            memberships.append((try row.decode(BabyProfileID.self, column: 0), role))
            if try row.decode(Bool.self, column: 9), let counted = try Self.due(row, seals: seals) {
                due.append(counted)
            }
        }
        return (memberships, due.sorted(by: Due.soonestFirst))
    }

    /// The columns after the profile id from which `due(_:seals:)` reads a countdown, from the profile `p` and
    /// its namesake `c`.
    private static let dueColumns = """
        p.name, p.name_sealed, coalesce(c.last_name, ''), p.expected_birth_date::text, \
        p.expected_birth_date_sealed, c.user_id, c.last_name_sealed
        """

    /// The countdown of a row whose first column is the profile id and the next ones `dueColumns`; nil when its
    /// date is not set.
    private static func due(_ row: PostgresRow, seals: BabySeals) throws -> Due? {
        let (profile, plainName, sealedName, plainDate, sealedDate) = (
            try row.decode(BabyProfileID.self, column: 0), try row.decode(String?.self, column: 1),
            try row.decode([UInt8]?.self, column: 2), try row.decode(String?.self, column: 4),
            try row.decode([UInt8]?.self, column: 5)
        )
        let last = try ProfileStore.name(row, plain: 3, user: 6, seals.names.last)
        guard
            let date = try seals.open(
                plain: plainDate, sealed: sealedDate, .expectedBirthDate, of: profile
            )
            .flatMap(BabyBirthDate.init(iso:))
        else { return nil }
        let name = try seals.open(plain: plainName, sealed: sealedName, .name, of: profile)
        return Due(profile: profile, name: name, namesakeLastName: last, date: date)
    }

    /// `profile`'s expected birth date (nil when not set) and gender (`BabyGender`'s number), for the
    /// suggestions' stage.
    static func stageInputs(of profile: BabyProfileID, seals: BabySeals, on db: PostgresPool) async throws
        -> (due: BabyBirthDate?, gender: Int)
    {
        let rows = try await db.pureRead(
            """
            SELECT expected_birth_date::text, expected_birth_date_sealed, gender::int
            FROM family.baby_profiles WHERE profile_id = \(profile)::uuid
            """)
        guard let row = rows.first else { return (nil, 0) }
        let (plain, sealed, gender) = try row.decode((String?, [UInt8]?, Int).self)
        let due = try seals.open(plain: plain, sealed: sealed, .expectedBirthDate, of: profile)
            .flatMap(BabyBirthDate.init(iso:))
        return (due, gender)
    }

    /// The newest catalogue's suggestions for `stages` (`BabyStage` numbers), for every baby and for `gender`,
    /// in stage then catalogue order, with each one's stage and the catalogue's version.
    static func suggestions(stages: [Int], gender: Int, on db: PostgresPool) async throws
        -> [(key: String, type: Int32, title: String, description: String, version: Int32, stage: Int32)]
    {
        try await db.pureRead(
            """
            SELECT suggestion_key, type::int, title, description, catalogue_version, stage::int
            FROM family.baby_suggestions
            WHERE catalogue_version = (SELECT max(catalogue_version) FROM family.baby_suggestions)
              AND stage = ANY(\(PostgresArray(stages))::smallint[]) AND (gender IS NULL OR gender = \(gender)::smallint)
            ORDER BY stage, position
            """
        ).map { try $0.decode((String, Int32, String, String, Int32, Int32).self) }
    }
}
