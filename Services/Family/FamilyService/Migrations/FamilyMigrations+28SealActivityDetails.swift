import KindredPostgres

extension FamilyMigrations {
    /// The activity's details are sealed (`ActivityDetails`): they name events and registry items, quote
    /// comments and, on an arrival, the baby. New entries keep theirs only in `detail_sealed`; older ones keep
    /// the plaintext until `kindred-family keys rotate-data` seals it.
    static let v28SealActivityDetails = Migration(
        version: 28, name: "seal_activity_details",
        sql: """
            ALTER TABLE family.baby_activity
                ADD COLUMN detail_sealed bytea,
                ALTER COLUMN detail DROP NOT NULL,
                ALTER COLUMN detail DROP DEFAULT;
            """)
}
