import KindredPostgres

extension IdentityMigrations {
    /// What a family device's mode needs of a refresh chain: the scope every token of the chain carries, and
    /// when a parent-mode chain stops refreshing. Chains started by a sign-in keep `full` and no end.
    static let v5AddDeviceModeChains = Migration(
        version: 5, name: "add_device_mode_chains",
        sql: """
            ALTER TABLE identity.refresh_chains
                ADD COLUMN scope text NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'child_readonly')),
                -- Parent mode: the chain refuses to refresh from this instant, set 30 minutes after the proof.
                ADD COLUMN session_ends_at timestamptz;
            """)
}
