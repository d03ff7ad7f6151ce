import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of the home screen's countdown and the suggestions: reads of `family.baby_profiles` and
/// `family.baby_suggestions`.
enum BabyHomeStore {
    /// A profile due soon, as the countdown shows it.
    struct DueSoon: Sendable {
        let profile: BabyProfileID
        let name: String?
        let creatorLastName: String
        let year: Int32, month: Int32, day: Int32
        /// 00:00 UTC of the expected birth date.
        let dueStart: Date
    }

    /// The active profiles among `profiles` expected after today (UTC, at `now`) and at most 10 days from it,
    /// the soonest first.
    static func dueSoon(_ profiles: [BabyProfileID], at now: Date, on db: PostgresPool) async throws
        -> [DueSoon]
    {
        try await db.pureRead(
            """
            SELECT p.profile_id, p.name, coalesce(c.last_name, ''), extract(year FROM d.due)::int,
                extract(month FROM d.due)::int, extract(day FROM d.due)::int,
                to_timestamp(extract(epoch FROM d.due::timestamp))
            FROM family.baby_profiles p
            CROSS JOIN LATERAL (SELECT p.expected_birth_date AS due,
                                (\(now)::timestamptz AT TIME ZONE 'UTC')::date AS today) d
            LEFT JOIN family.profiles c ON c.user_id = p.created_by
            WHERE p.profile_id = ANY(\(PostgresArray(profiles))::uuid[]) AND p.active
              AND d.due > d.today AND d.due <= d.today + 10
            ORDER BY d.due, p.profile_id
            """
        ).map { row in
            let (profile, name, last, year, month, day, start) = try row.decode(
                (BabyProfileID, String?, String, Int32, Int32, Int32, Date).self)
            return DueSoon(
                profile: profile, name: name, creatorLastName: last, year: year, month: month, day: day,
                dueStart: start)
        }
    }

    /// Where `profile` stands for the suggestions: days from today (UTC, at `now`) to its expected birth
    /// date, whole months of age since it (0 before it), and its gender; nil without an expected birth date.
    static func stageInputs(of profile: BabyProfileID, at now: Date, on db: PostgresPool) async throws
        -> (daysUntilDue: Int, monthsOld: Int, gender: Int)?
    {
        let rows = try await db.pureRead(
            """
            SELECT p.expected_birth_date - d.today,
                CASE WHEN p.expected_birth_date > d.today THEN 0 ELSE
                    (extract(year FROM age(d.today, p.expected_birth_date)) * 12
                     + extract(month FROM age(d.today, p.expected_birth_date)))::int END,
                p.gender::int
            FROM family.baby_profiles p
            CROSS JOIN (SELECT (\(now)::timestamptz AT TIME ZONE 'UTC')::date AS today) d
            WHERE p.profile_id = \(profile)::uuid AND p.expected_birth_date IS NOT NULL
            """)
        return try rows.first.map { try $0.decode((Int, Int, Int).self) }
    }

    /// The newest catalogue's suggestions for `stage`, for every baby and for `gender`, in catalogue order,
    /// with the catalogue's version.
    static func suggestions(stage: Int, gender: Int, on db: PostgresPool) async throws
        -> [(key: String, type: Int32, title: String, description: String, version: Int32)]
    {
        try await db.pureRead(
            """
            SELECT suggestion_key, type::int, title, description, catalogue_version FROM family.baby_suggestions
            WHERE catalogue_version = (SELECT max(catalogue_version) FROM family.baby_suggestions)
              AND stage = \(stage)::smallint AND (gender IS NULL OR gender = \(gender)::smallint)
            ORDER BY position
            """
        ).map { try $0.decode((String, Int32, String, String, Int32).self) }
    }
}
