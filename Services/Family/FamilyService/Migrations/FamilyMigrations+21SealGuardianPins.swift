import KindredPostgres

extension FamilyMigrations {
    /// Guardian PIN material sealed at rest (`SealedText`: AES-256-GCM under family's data keys, bound to its
    /// row): a PIN has 10,000 to a million values, so a stolen Argon2id hash falls to an offline search in
    /// minutes; sealed, it is useless without the keys. The address a reset link went to is sealed too. New
    /// rows store only the sealed column; rows written before keep their plaintext until `kindred-family keys
    /// rotate-data` seals them, and are read as they are meanwhile. Each row has exactly one of the two.
    static let v21SealGuardianPins = Migration(
        version: 21, name: "seal_guardian_pins",
        sql: """
            ALTER TABLE family.guardian_pins
                ADD COLUMN pin_hash_sealed bytea,
                ALTER COLUMN pin_hash DROP NOT NULL,
                ADD CONSTRAINT guardian_pins_one_hash CHECK ((pin_hash IS NULL) <> (pin_hash_sealed IS NULL));
            ALTER TABLE family.guardian_pin_resets
                ADD COLUMN email_sealed bytea,
                ALTER COLUMN email DROP NOT NULL,
                ADD CONSTRAINT guardian_pin_resets_one_email CHECK ((email IS NULL) <> (email_sealed IS NULL));
            """)
}
