import KindredPostgres

extension FamilyMigrations {
    /// Baby-profile content is kept seven years after the profile is deleted (by an owner, or when its last
    /// owner's account goes), unreadable by anyone, then purged: `deleted_at` starts the clock, and the daily
    /// purge finds the profiles past it by this index.
    static let v19BabyProfileRetention = Migration(
        version: 19, name: "baby_profile_retention",
        sql: """
            ALTER TABLE family.baby_profiles ADD COLUMN deleted_at timestamptz;
            CREATE INDEX baby_profiles_deleted ON family.baby_profiles (deleted_at) WHERE deleted_at IS NOT NULL;
            """)
}
