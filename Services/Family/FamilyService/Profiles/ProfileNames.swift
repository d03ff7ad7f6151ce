import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// People's first and last names as `family.profiles` keeps them: each sealed under family's data keys (family
/// migration 31), bound to its person and column, its plaintext column left empty. Names written before sealing
/// keep their plaintext until `kindred-family keys rotate-data` seals it.
struct ProfileNames: Sendable {
    /// A name column of `family.profiles`.
    enum Column: String, Sendable {
        case first = "first_name"
        case last = "last_name"
    }

    let first: SealedText<UserID>
    let last: SealedText<UserID>

    init(cipher: FieldCipher) {
        first = SealedText(cipher: cipher) { "family.profiles.first_name/\($0)" }
        last = SealedText(cipher: cipher) { "family.profiles.last_name/\($0)" }
    }

    /// The sealed text of `column`.
    func text(_ column: Column) -> SealedText<UserID> {
        switch column {
        case .first: first
        case .last: last
        }
    }

    /// Both columns as `keys rotate-data` re-seals them.
    static func rotations(cipher: FieldCipher, on database: PostgresPool) -> [any SealedColumn] {
        let names = ProfileNames(cipher: cipher)
        return [Column.first, .last].map { column in
            SealedTextRotation(
                name: column == .first ? "profile first names" : "profile last names", database: database,
                text: names.text(column),
                rows: { try await ProfileStore.names(column, after: $0, limit: $1, on: $2) },
                reseal: { try await ProfileStore.reseal(column, of: $0, was: $1, as: $2, in: $3) })
        }
    }
}
