import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// The detail of a baby profile's activity entry (an event's or registry item's name, a comment's text, the
/// baby's name on an arrival) as `family.baby_activity` keeps it: sealed under family's data keys (family
/// migration 27), bound to its entry. Entries from before sealing keep their plaintext until `kindred-family
/// keys rotate-data` seals it.
enum ActivityDetails {
    /// An entry's key, which its detail is bound to.
    struct Key: Sendable {
        let profile: BabyProfileID
        let activity: BabyActivityID
    }

    /// The sealed details.
    static func sealed(with cipher: FieldCipher) -> SealedText<Key> {
        SealedText(cipher: cipher) { "family.baby_activity.detail/\($0.activity)" }
    }

    /// The column as `keys rotate-data` re-seals it.
    static func rotation(cipher: FieldCipher, on database: PostgresPool) -> any SealedColumn {
        SealedTextRotation(
            name: "activity details", database: database, text: sealed(with: cipher),
            rows: { try await BabyActivityStore.details(after: $0, limit: $1, on: $2) },
            reseal: { try await BabyActivityStore.reseal($0, was: $1, as: $2, in: $3) })
    }
}
