import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of the home screen's memberships, countdowns and arrivals, and of the suggestions: reads of
/// `family.baby_members`, `family.baby_profiles` and `family.baby_suggestions`.
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

    /// What the home shows of `user`'s memberships, read in one statement.
    struct Memberships: Sendable {
        /// The followed profiles with an expected birth date, as their countdown shows them, the soonest first.
        var due: [Due] = []
        /// The announcements made after the cutoff asked, newest first, as `user` sees them.
        var arrivals: [StoredArrival] = []
    }

    /// Over every active profile `user` belongs to (only `profile` when given: nothing when they are not its
    /// member), what the countdown of each followed one with an expected birth date shows, and the announcement
    /// of each made after `arrivalsSince` (none when nil): the home's countdowns and arrivals in one read, a
    /// probe of the announcements' primary key per membership.
    static func memberships(
        of user: UserID, only profile: BabyProfileID?, arrivalsSince: Date?, seals: BabySeals,
        on db: PostgresPool
    ) async throws -> Memberships {
        let counting = """
            m.role = \(BabyRole.follower.rawValue) \
            AND (p.expected_birth_date IS NOT NULL OR p.expected_birth_date_sealed IS NOT NULL)
            """
        // The namesake only of a profile counting down: the function costs a probe per call. The arrival's
        // columns come last, at `arrivalColumn` on.
        var query: PostgresQuery = """
            SELECT m.profile_id, \(unsafeSQL: dueColumns), \(unsafeSQL: counting), arrival.*
            FROM family.baby_members m
            JOIN family.baby_profiles p ON p.profile_id = m.profile_id AND p.active
            LEFT JOIN family.profiles c
                ON c.user_id = CASE WHEN \(unsafeSQL: counting) THEN family.baby_namesake(p.profile_id, p.created_by) END
            LEFT JOIN LATERAL (\(ArrivalStore.arrival(ofProfileSince: arrivalsSince, readBy: user))) arrival ON true
            WHERE m.user_id = \(user)::uuid
            """
        if let profile { query.append(" AND m.profile_id = \(profile)::uuid") }
        var home = Memberships()
        for row in try await db.pureRead(query) {
            if try row.decode(Bool.self, column: 8), let counted = try Self.due(row, seals: seals) {
                home.due.append(counted)
            }
            if try row.decode(BabyProfileID?.self, column: arrivalColumn) != nil {
                home.arrivals.append(try StoredArrival(row, seals: seals, from: arrivalColumn))
            }
        }
        home.due.sort(by: Due.soonestFirst)
        home.arrivals.sort {
            ($1.announcedAt, $0.profile.description) < ($0.announcedAt, $1.profile.description)
        }
        return home
    }

    /// Where `memberships`' rows hold the announcement's columns (`StoredArrival`).
    private static let arrivalColumn = 9

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
