import KindredPostgres

extension FamilyMigrations {
    /// Whose last name a baby profile without a name takes ("Baby <last name>"): the father's, the one owner
    /// who said `RELATIONSHIP_FATHER` (14); with two fathers or none, the creating owner's, as before. Every
    /// read that derives the name joins `family.profiles` on this, so it is one definition, read at the time of
    /// the read (a later change of owners or names shows). An inlined scalar subquery over the profile's key
    /// range of `family.baby_members`, whose owners are at most two.
    static let v25BabyNamesake = Migration(
        version: 25, name: "baby_namesake",
        sql: """
            CREATE FUNCTION family.baby_namesake(profile uuid, creator uuid) RETURNS uuid
            LANGUAGE sql STABLE PARALLEL SAFE AS $$
                SELECT CASE WHEN count(*) = 1 THEN min(m.user_id::text)::uuid ELSE creator END
                FROM family.baby_members m
                WHERE m.profile_id = profile AND m.role = 1 AND m.relationship = 14
            $$;
            """)
}
