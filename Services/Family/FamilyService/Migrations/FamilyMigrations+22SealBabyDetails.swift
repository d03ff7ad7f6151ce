import KindredPostgres

extension FamilyMigrations {
    /// A baby's name, expected birth date and birth details sealed at rest (`BabySeals`: AES-256-GCM under
    /// family's data keys, bound to the profile and the column). New writes store the `*_sealed` columns only;
    /// rows written before keep their plaintext until `kindred-family keys rotate-data` seals them, and are
    /// read as they are meanwhile; a value is never in both forms. An arrival's date, time, weight and length
    /// are one sealed record (`ArrivalBirth`); with it, the four plaintext columns are empty.
    static let v22SealBabyDetails = Migration(
        version: 22, name: "seal_baby_details",
        sql: """
            ALTER TABLE family.baby_profiles
                ADD COLUMN name_sealed bytea,
                ADD COLUMN expected_birth_date_sealed bytea,
                ADD CONSTRAINT baby_profiles_one_name CHECK (name IS NULL OR name_sealed IS NULL),
                ADD CONSTRAINT baby_profiles_one_expected_birth_date
                    CHECK (expected_birth_date IS NULL OR expected_birth_date_sealed IS NULL);
            ALTER TABLE family.baby_arrivals
                ADD COLUMN birth_sealed bytea,
                ALTER COLUMN birth_date DROP NOT NULL,
                ADD CONSTRAINT baby_arrivals_one_birth CHECK ((birth_date IS NULL) <> (birth_sealed IS NULL)),
                ADD CONSTRAINT baby_arrivals_sealed_birth_alone CHECK (birth_sealed IS NULL
                    OR (birth_time IS NULL AND weight_grams IS NULL AND length_mm IS NULL));
            """)
}
