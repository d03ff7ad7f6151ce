import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC

/// How a caller stands to a minor, for the PIN and the controls: the minor themself, one of their guardians
/// (a row of `family.guardian_links`), or anyone else, who is told nothing.
enum MinorAccess: Sendable, Equatable {
    case minor, guardian, stranger

    /// Where `caller` stands to `minorID` (canonical).
    static func of(_ caller: Caller, to minorID: String, on tx: PostgresTransaction) async throws
        -> MinorAccess
    {
        guard caller.role == .user, UUIDv7.isWellFormed(caller.userID) else { return .stranger }
        let userID = caller.userID.lowercased()
        if userID == minorID { return .minor }
        return try await GuardianLinkStore.exists(guardian: userID, minor: minorID, on: tx)
            ? .guardian : .stranger
    }

    /// Refuses anyone but a guardian of `minorID`: the minor with GUARDIANS_ONLY, anyone else with NOT_FOUND.
    static func requireGuardian(_ caller: Caller, of minorID: String, on tx: PostgresTransaction) async throws
    {
        switch try await of(caller, to: minorID, on: tx) {
        case .guardian: return
        case .minor: throw FamilyError.guardiansOnly
        case .stranger: throw FamilyError.userNotFound
        }
    }

    /// `text` as a canonical (lower-case) user id, or a violation of `field` recorded.
    static func userID(_ text: String, field: String, into violations: inout FieldViolations) -> String {
        if text.isEmpty {
            violations.add(field, "is required")
        } else if !UUIDv7.isWellFormed(text) {
            violations.add(field, "must be a user id (a UUID)")
        }
        return text.lowercased()
    }
}
