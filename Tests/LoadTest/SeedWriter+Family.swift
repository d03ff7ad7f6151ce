import KindredPostgres
import LoadTestKit

/// Baby profiles, in bulk through family's own role: what `CreateBabyProfile` (the profile and its request
/// id), the accepted invitations (the members), `UpdateProfile` (each member's first and last name),
/// `CreateCalendarEvent` and `CreateRegistryItem` leave in family's tables, one `generate_series` statement per
/// table for a batch of profiles. Left out, as no read
/// the run makes depends on them: the invitation rows and their mail, and the activity those calls record
/// (the run's own writes make the activity it measures). The layout (who owns and follows what, the ids)
/// is `BabyFamilies`.
struct FamilySeedWriter: Sendable {
    let family: PostgresPool
    let families: BabyFamilies

    /// Profiles `range`, in one transaction.
    func write(_ range: Range<Int>) async throws {
        // The tag is hex the tool generated, so it can be SQL text (`id`); every number is an Int.
        guard families.tag.allSatisfy(\.isHexDigit) else {
            throw ToolError("The seed file's secret is not hex.")
        }
        let (first, last, live) = (range.lowerBound, range.upperBound - 1, families.liveProfiles)
        let owner =
            "CASE WHEN p < \(live) THEN \(id(0, "p * \(BabyFamilies.groupSize)")) ELSE \(id(9, "p")) END"
        let profiles = "generate_series(\(first), \(last)) p"
        try await family.transaction { tx in
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO family.baby_profiles (profile_id, created_by, name, expected_birth_date,
                            created_at, updated_at)
                        SELECT \(id(6, "p")), \(owner), 'Baby ' || p, current_date + 1 + p % 280, now(), now()
                        FROM \(profiles)
                        ON CONFLICT DO NOTHING
                        """))
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO family.baby_profile_requests (user_id, request_id, profile_id)
                        SELECT \(owner), 'loadtest-profile-' || p, \(id(6, "p")) FROM \(profiles)
                        ON CONFLICT DO NOTHING
                        """))
            try await tx.query(
                PostgresQuery(unsafeSQL: members(owner: owner, profiles: profiles, live: live)))
            try await tx.query(PostgresQuery(unsafeSQL: names(profiles: profiles)))
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO family.calendar_events (profile_id, event_id, name, start_at, time_zone,
                            created_by, request_id, created_at, updated_at)
                        SELECT \(id(6, "p")), \(id(7, "p * \(BabyFamilies.eventsPerProfile) + k")),
                            (ARRAY['Baby shower', 'Checkup', 'Naming day'])[1 + k % 3],
                            now() + (k + 1) * interval '7 days', 'Europe/London', \(owner),
                            'loadtest-event-' || k, now(), now()
                        FROM \(profiles), generate_series(0, \(BabyFamilies.eventsPerProfile - 1)) k
                        ON CONFLICT DO NOTHING
                        """))
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO family.registry_items (profile_id, item_id, name, created_by, request_id,
                            created_at, updated_at)
                        SELECT \(id(6, "p")), \(id(8, "p * \(BabyFamilies.itemsPerProfile) + k")),
                            (ARRAY['Stroller', 'Baby monitor', 'Bottles', 'Blanket', 'Car seat'])[1 + k % 5],
                            \(owner), 'loadtest-item-' || k, now(), now()
                        FROM \(profiles), generate_series(0, \(BabyFamilies.itemsPerProfile - 1)) k
                        ON CONFLICT DO NOTHING
                        """))
        }
    }

    /// The owner, then the followers: a live profile's grandparents from its own group and the one before
    /// (`BabyFamilies.members(of:)`), as grandma, grandpa or aunt; a background family's three.
    private func members(owner: String, profiles: String, live: Int) -> String {
        let group = BabyFamilies.groupSize
        let liveFollower = id(0, "((p - d + \(live)) % \(live)) * \(group) + k")
        let backgroundFollower = id(10, "p * \(BabyFamilies.backgroundFollowers) + k - 1")
        return """
            INSERT INTO family.baby_members (profile_id, user_id, role, relationship, joined_at)
            SELECT \(id(6, "p")), \(owner), 1, 0, now() FROM \(profiles)
            UNION ALL
            SELECT \(id(6, "p")), \(liveFollower), 2, k, now()
            FROM \(profiles), generate_series(0, 1) d, generate_series(1, \(BabyFamilies.grandparentsPerGroup)) k
            WHERE p < \(live) AND (d = 0 OR \(live) > 1)
            UNION ALL
            SELECT \(id(6, "p")), \(backgroundFollower), 2, k, now()
            FROM \(profiles), generate_series(1, \(BabyFamilies.backgroundFollowers)) k
            WHERE p >= \(live)
            ON CONFLICT DO NOTHING
            """
    }

    /// The family profile `UpdateProfile` leaves (a first and a last name; written plain, sealed by `rotate-data`)
    /// of each member of the batch's profiles who has none yet: the names every activity entry, notice and
    /// unnamed baby ("Baby <last name>") reads. Without them every such read joined an empty table. A member of
    /// two profiles keeps the names of the first; a family's members share its last name.
    private func names(profiles: String) -> String {
        """
        INSERT INTO family.profiles (user_id, first_name, last_name, updated_at)
        SELECT DISTINCT ON (m.user_id) m.user_id,
            (ARRAY['Ada', 'Rose', 'Sam', 'Noor', 'Leo', 'Mia', 'Omar', 'Ivy'])[1 + (hashtext(m.user_id::text) & 7)],
            (ARRAY['Smith', 'Garcia', 'Khan', 'Okafor', 'Novak', 'Tanaka'])[1 + p % 6], now()
        FROM \(profiles) JOIN family.baby_members m ON m.profile_id = \(id(6, "p"))
        ORDER BY m.user_id, p
        ON CONFLICT DO NOTHING
        """
    }

    private func id(_ space: Int, _ n: String) -> String { SeedSQL.id(tag: families.tag, space: space, n) }
}
