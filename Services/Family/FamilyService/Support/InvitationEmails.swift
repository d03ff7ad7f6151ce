import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// The addresses invitations were mailed to (family migration 32): `family.guardian_invitations.guardian_email`
/// and `family.baby_invitations.email`, sealed under family's data keys and bound to their invitation. The rules
/// that compare an address (a retry's, the newest link per address, the re-invite interval) open the few
/// invitations of the one minor or profile they lock, so no lookup needs a blind index, and family needs no key
/// of its own beside its data keys. Rows from before keep their plaintext until `kindred-family keys
/// rotate-data` seals it, and are read as they are meanwhile.
struct InvitationEmails: Sendable {
    /// Guardian invitations' addresses, by invitation id.
    let guardian: SealedText<GuardianInvitationID>
    /// Baby profile invitations' addresses, by profile and invitation.
    let baby: SealedText<BabyInvitationKey>

    init(cipher: FieldCipher) {
        guardian = SealedText(cipher: cipher) { "family.guardian_invitations.guardian_email/\($0)" }
        baby = SealedText(cipher: cipher) { "family.baby_invitations.email/\($0.invitation)" }
    }

    /// The two columns as `keys rotate-data` re-seals them.
    func rotations(on database: PostgresPool) -> [any SealedColumn] {
        [
            SealedTextRotation(
                name: "guardian invitation addresses", database: database, text: guardian,
                rows: { try await GuardianInvitationStore.emails(after: $0, limit: $1, on: $2) },
                reseal: { try await GuardianInvitationStore.reseal($0, was: $1, as: $2, in: $3) }),
            SealedTextRotation(
                name: "baby invitation addresses", database: database, text: baby,
                rows: { try await BabyInvitationStore.emails(after: $0, limit: $1, on: $2) },
                reseal: { try await BabyInvitationStore.reseal($0, was: $1, as: $2, in: $3) }),
        ]
    }
}

/// A baby profile invitation's row key; its address is bound to the invitation id.
struct BabyInvitationKey: Sendable {
    let profile: BabyProfileID
    let invitation: BabyInvitationID
}
