import KindredPostgres

extension FamilyMigrations {
    /// People's first and last names are sealed (`ProfileNames`): new names are kept only in the `_sealed`
    /// columns, the plaintext columns left empty; older ones keep the plaintext until `kindred-family keys
    /// rotate-data` seals it.
    static let v31SealProfileNames = Migration(
        version: 31, name: "seal_profile_names",
        sql: """
            ALTER TABLE family.profiles ADD COLUMN first_name_sealed bytea, ADD COLUMN last_name_sealed bytea;
            """)
}
