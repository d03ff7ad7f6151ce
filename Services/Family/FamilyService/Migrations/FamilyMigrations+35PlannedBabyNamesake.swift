import KindredPostgres

extension FamilyMigrations {
    /// `family.baby_namesake` (migration 25) in PL/pgSQL, the same query and answer. As a SQL function with a
    /// FROM and an aggregate it was never inlined: every statement calling it planned its body afresh, 0.1–0.2
    /// ms a statement (`pg_stat_statements` on the activity names of every baby-profile write; a pgbench loop
    /// of one call: 0.26 ms against 0.07 ms). PL/pgSQL keeps the plan for the session.
    static let v35PlannedBabyNamesake = Migration(
        version: 35, name: "planned_baby_namesake",
        sql: """
            CREATE OR REPLACE FUNCTION family.baby_namesake(profile uuid, creator uuid) RETURNS uuid
            LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
            BEGIN
                RETURN (
                    SELECT CASE WHEN count(*) = 1 THEN min(m.user_id::text)::uuid ELSE creator END
                    FROM family.baby_members m
                    WHERE m.profile_id = profile AND m.role = 1 AND m.relationship = 14);
            END
            $$;
            """)
}
