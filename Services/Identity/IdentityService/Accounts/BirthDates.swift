import KindredAuth
import KindredHandlers
import KindredPostgres

/// Dates of birth as they are stored: sealed under identity's data keys (`FieldCipher`, AES-256-GCM), each bound
/// to its row — an account's date to the account, a requested change's new date to its confirmation token — so a
/// dump of the database holds no date of birth and a sealed date copied to another row does not open. Dates
/// stored before sealing began are plaintext until `keys rotate-data` seals them (`BirthDateRotation`).
struct BirthDates: Sendable {
    /// The row a sealed date belongs to: what its value is bound to.
    enum Place: Sendable, Hashable {
        /// `identity.accounts.date_of_birth` of an account.
        case account(UserID)
        /// `identity.email_tokens.new_date_of_birth` of the token whose SHA-256 is `tokenHash`.
        case emailToken(tokenHash: [UInt8])

        var context: String {
            switch self {
            case .account(let id): "identity.accounts.date_of_birth/\(id)"
            case .emailToken(let hash): "identity.email_tokens.new_date_of_birth/\(Base64.encode(hash))"
            }
        }
    }

    let cipher: FieldCipher

    /// `date` sealed for `place`: its ISO text (`1990-04-12`) under the current data key.
    func seal(_ date: CalendarDate, at place: Place) -> [UInt8] {
        cipher.seal(Array(date.description.utf8), context: place.context)
    }

    /// The date stored at `place`, from whichever of its two columns holds it.
    func open(_ stored: StoredBirthDate, at place: Place) throws -> CalendarDate {
        let text =
            if let sealed = stored.sealed {
                String(decoding: try cipher.open(sealed, context: place.context), as: UTF8.self)
            } else { stored.plain }
        guard let text, let date = CalendarDate(iso: text) else {
            throw PostgresError(kind: .decoding, message: "\(place.context) holds no readable date")
        }
        return date
    }
}

/// A date of birth as a row holds it: the plaintext `date` of a row written before sealing began (as PostgreSQL
/// prints it), or the sealed value; exactly one is set where a date is stored.
struct StoredBirthDate: Sendable, Equatable {
    let plain: String?
    let sealed: [UInt8]?

    /// Whether the row holds no date (an email token other than a date-of-birth confirmation).
    var isEmpty: Bool { plain == nil && sealed == nil }
}
