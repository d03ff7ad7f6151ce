import KindredPostgres

extension FamilyMigrations {
    /// The addresses invitations are mailed to are sealed (`InvitationEmails`): new invitations keep theirs
    /// only in the `_sealed` column; older ones keep the plaintext until `kindred-family keys rotate-data` seals
    /// it.
    static let v32SealInvitationEmails = Migration(
        version: 32, name: "seal_invitation_emails",
        sql: """
            ALTER TABLE family.guardian_invitations
                ADD COLUMN guardian_email_sealed bytea,
                ALTER COLUMN guardian_email DROP NOT NULL;
            ALTER TABLE family.baby_invitations
                ADD COLUMN email_sealed bytea,
                ALTER COLUMN email DROP NOT NULL;
            """)
}
