import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// One sealed baby detail as `kindred-family keys rotate-data` re-seals it (`SealedColumn`): in batches by
/// profile id, opening a value sealed under an older key with that key, and sealing plaintext values from
/// before sealing began.
struct BabySealRotation: SealedColumn {
    static let batch = 500

    let database: PostgresPool
    let seals: BabySeals
    let column: BabySeals.Column

    /// The three sealed baby details: names, expected birth dates, arrivals' birth records.
    static func all(database: PostgresPool, cipher: FieldCipher) -> [BabySealRotation] {
        [.name, .expectedBirthDate, .arrivalBirth, .arrivalMessage].map {
            BabySealRotation(database: database, seals: BabySeals(cipher: cipher), column: $0)
        }
    }

    var name: String {
        switch column {
        case .name: "baby profile names"
        case .expectedBirthDate: "expected birth dates"
        case .arrivalBirth: "arrival birth details"
        case .arrivalMessage: "arrival messages"
        }
    }

    func resealBatch(after cursor: BabyProfileID?) async throws -> (resealed: Int, next: BabyProfileID?) {
        let (values, next) = try await BabySealStore.values(
            of: column, after: cursor, limit: Self.batch, on: database)
        let resealed = try values.compactMap { value -> (BabySealStore.Stored, [UInt8])? in
            // A detail the profile never had (no expected date, no arrival) opens to nil and is left.
            guard !seals.cipher.isCurrent(value.sealed),
                let text = try seals.open(
                    plain: value.plain, sealed: value.sealed, column, of: value.profile),
                let sealed = seals.seal(text, column, of: value.profile)
            else { return nil }
            return (value, sealed)
        }
        if !resealed.isEmpty {
            try await database.transaction { tx in
                for (value, sealed) in resealed {
                    try await BabySealStore.reseal(value, as: sealed, column, in: tx)
                }
            }
        }
        return (resealed.count, next)
    }
}
