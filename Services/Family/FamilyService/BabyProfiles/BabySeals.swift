import KindredAuth
import KindredHandlers

/// A baby's name, expected birth date and birth details as they are stored: sealed under family's data keys
/// (`FieldCipher`, AES-256-GCM), each bound to its profile and column, so a dump of the database holds none of
/// them and a value moved to another profile or column does not open. Values stored before sealing began are
/// plaintext until `kindred-family keys rotate-data` seals them, and are read as they are meanwhile.
struct BabySeals: Sendable {
    /// A sealed column: the context its values are bound to, `<column>/<profile id>`.
    enum Column: String, Sendable {
        case name = "family.baby_profiles.name"
        case expectedBirthDate = "family.baby_profiles.expected_birth_date"
        /// The arrival's birth date, time, weight and length as one record (`ArrivalBirth`).
        case arrivalBirth = "family.baby_arrivals.birth"
        /// The arrival's message, the parents' own words.
        case arrivalMessage = "family.baby_arrivals.message"
    }

    let cipher: FieldCipher

    /// People's names (the namesake's last name in a baby's full name, an actor's in a notice).
    var names: ProfileNames { ProfileNames(cipher: cipher) }

    /// `text` sealed for `column` of `profile`; nil for nil.
    func seal(_ text: String?, _ column: Column, of profile: BabyProfileID) -> [UInt8]? {
        text.map { cipher.seal(Array($0.utf8), context: Self.context(column, profile)) }
    }

    /// The text of `column` of `profile`, from whichever of its plaintext and sealed forms holds it.
    func open(plain: String?, sealed: [UInt8]?, _ column: Column, of profile: BabyProfileID) throws -> String?
    {
        guard let sealed else { return plain }
        return String(
            decoding: try cipher.open(sealed, context: Self.context(column, profile)), as: UTF8.self)
    }

    private static func context(_ column: Column, _ profile: BabyProfileID) -> String {
        "\(column.rawValue)/\(profile)"
    }
}
