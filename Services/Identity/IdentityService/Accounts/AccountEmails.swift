import KindredAuth
import KindredHandlers
import KindredPostgres

/// Email addresses as `identity.accounts` keeps them (identity migration 10): sealed under identity's data keys,
/// bound to the account, beside a blind index, a keyed BLAKE2b of the lower-cased address under the service
/// secret's hashing subkey (`ServiceSecret.keyedHash`, in a context of its own). Sign-in, registration's
/// uniqueness and password resets look the index up through a unique index, as they looked up `lower(email)`:
/// one index probe either way. Without the secret the index shows only which accounts share an address (none
/// do). Accounts registered before keep the plaintext until `keys rotate-data` seals it (`EmailRotation`).
struct AccountEmails: Sendable {
    let cipher: FieldCipher
    let secret: ServiceSecret

    /// `email` sealed for `account`.
    func seal(_ email: String, of account: UserID) -> [UInt8] {
        cipher.seal(Array(email.utf8), context: "identity.accounts.email/\(account)")
    }

    /// The blind index of `email`, whatever its case (`Email.normalized`).
    func index(_ email: String) -> [UInt8] {
        secret.keyedHash("identity.accounts.email\u{0}\(Email.normalized(email))")
    }

    /// The address of `account`, from whichever of its two columns holds it.
    func open(plain: String?, sealed: [UInt8]?, of account: UserID) throws -> String {
        guard let sealed else {
            guard let plain else {
                throw PostgresError(kind: .decoding, message: "identity.accounts \(account) holds no email")
            }
            return plain
        }
        return String(
            decoding: try cipher.open(sealed, context: "identity.accounts.email/\(account)"), as: UTF8.self)
    }
}
