import KindredPostgres

extension FamilyMigrations {
    /// The arrival's message (the parents' own words) is sealed like the rest of the announcement (`BabySeals`):
    /// new and edited announcements keep it only in `message_sealed`; older ones keep the plaintext until
    /// `kindred-family keys rotate-data` seals it.
    static let v33SealArrivalMessages = Migration(
        version: 33, name: "seal_arrival_messages",
        sql: """
            ALTER TABLE family.baby_arrivals
                ADD COLUMN message_sealed bytea,
                ALTER COLUMN message DROP NOT NULL;
            """)
}
