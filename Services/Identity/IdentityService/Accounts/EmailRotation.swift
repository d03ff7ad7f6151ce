import KindredHandlers
import KindredPostgres
import KindredRuntime

/// `identity.accounts.email` as `kindred-identity keys rotate-data` re-seals it (`SealedColumn`): in batches by
/// account id, sealing the plaintext of accounts registered before sealing (and giving them their blind index)
/// and re-sealing addresses sealed under an older key.
struct EmailRotation: SealedColumn {
    let database: PostgresPool
    let emails: AccountEmails

    var name: String { "account emails" }

    func resealBatch(after cursor: UserID?) async throws -> (resealed: Int, next: UserID?) {
        let rows = try await AccountStore.storedEmails(after: cursor, limit: 500, on: database)
        let stale = try rows.filter { !emails.cipher.isCurrent($0.sealed) }.map { row in
            let email = try emails.open(plain: row.plain, sealed: row.sealed, of: row.id)
            return (row, emails.seal(email, of: row.id), emails.index(email))
        }
        try await database.transaction { tx in
            for (row, sealed, index) in stale {
                try await AccountStore.resealEmail(
                    of: row.id, was: row.sealed, as: sealed, index: index, in: tx)
            }
        }
        return (stale.count, rows.count < 500 ? nil : rows.last?.id)
    }
}
