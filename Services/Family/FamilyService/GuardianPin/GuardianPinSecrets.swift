import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// What the guardian PIN keeps sealed at rest (family migration 21): each minor's Argon2id PIN hash, bound to
/// the minor, and the address each reset link went to, bound to the link. A PIN has at most a million values,
/// so its hash alone falls to an offline search in minutes; sealed, a stolen dump is no help without the keys.
struct GuardianPinSecrets: Sendable {
    let hashes: SealedText<UserID>
    let resetEmails: SealedText<ResetLinkKey>

    init(cipher: FieldCipher) {
        hashes = SealedText(cipher: cipher) { "family.guardian_pins.pin_hash/\($0)" }
        resetEmails = SealedText(cipher: cipher) {
            "family.guardian_pin_resets.email/\(Base64.encode($0.hash))"
        }
    }

    /// The two columns as `keys rotate-data` re-seals them.
    func rotations(on database: PostgresPool) -> [any SealedColumn] {
        [
            SealedTextRotation(
                name: "guardian PIN hashes", database: database, text: hashes,
                rows: { try await GuardianPinStore.hashes(after: $0, limit: $1, on: $2) },
                reseal: { try await GuardianPinStore.reseal($0, was: $1, as: $2, in: $3) }),
            SealedTextRotation(
                name: "guardian PIN reset addresses", database: database, text: resetEmails,
                rows: { try await GuardianPinResetStore.emails(after: $0, limit: $1, on: $2) },
                reseal: { try await GuardianPinResetStore.reseal($0, was: $1, as: $2, in: $3) }),
        ]
    }
}

/// A reset link's row key: SHA-256 of its token.
struct ResetLinkKey: Sendable {
    let hash: [UInt8]
}
