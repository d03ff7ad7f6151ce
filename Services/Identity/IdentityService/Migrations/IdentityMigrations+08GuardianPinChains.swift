import KindredPostgres

extension IdentityMigrations {
    /// Parent mode proven with a guardian PIN: the minor whose PIN it was, kept on the chain so that every
    /// token it hands out, refreshed ones too, carries the `guardian_pin` claim. Null for every other chain.
    static let v8GuardianPinChains = Migration(
        version: 8, name: "guardian_pin_chains",
        sql: """
            ALTER TABLE identity.refresh_chains ADD COLUMN guardian_pin_minor uuid;
            """)
}
