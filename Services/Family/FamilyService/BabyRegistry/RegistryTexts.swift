import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// A registry item's name and description as `family.registry_items` keeps them: sealed together under family's
/// data keys (family migration 30), bound to the item. Items from before sealing keep their plaintext until
/// `kindred-family keys rotate-data` seals it.
enum RegistryTexts {
    /// An item's key, which its texts are bound to.
    struct Key: Sendable {
        let profile: BabyProfileID
        let item: RegistryItemID
    }

    /// The sealed texts: name, description.
    static func sealed(with cipher: FieldCipher) -> SealedTexts<Key> {
        SealedTexts(cipher: cipher, count: 2) { "family.registry_items.texts/\($0.item)" }
    }

    /// The shop link, sealed on its own (family migration 34).
    static func link(with cipher: FieldCipher) -> SealedText<Key> {
        SealedText(cipher: cipher) { "family.registry_items.link_url/\($0.item)" }
    }

    /// The columns as `keys rotate-data` re-seals them.
    static func rotations(cipher: FieldCipher, on database: PostgresPool) -> [any SealedColumn] {
        [
            SealedTextRotation(
                name: "registry item texts", database: database, text: sealed(with: cipher),
                rows: { try await RegistryItemStore.texts(after: $0, limit: $1, on: $2) },
                reseal: { try await RegistryItemStore.reseal($0, was: $1, as: $2, in: $3) }),
            SealedTextRotation(
                name: "registry shop links", database: database, text: link(with: cipher),
                rows: { try await RegistryItemStore.links(after: $0, limit: $1, on: $2) },
                reseal: { try await RegistryItemStore.resealLink($0, was: $1, as: $2, in: $3) }),
        ]
    }
}

extension RegistryItemDetails {
    /// The texts sealed together, in `RegistryTexts`' order.
    var texts: [String] { [name, description] }
}
