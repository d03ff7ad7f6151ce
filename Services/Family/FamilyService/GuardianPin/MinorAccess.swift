import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC

/// How a caller stands to a minor, for the PIN and the controls: the minor themself, one of their guardians
/// (a row of `family.guardian_links`), or anyone else, who is told nothing.
enum MinorAccess: Sendable, Equatable {
    case minor, guardian, stranger

    /// Where `caller` stands to `minorID` (canonical).
    static func of(_ caller: Caller, to minorID: UserID, on tx: PostgresTransaction) async throws
        -> MinorAccess
    {
        guard caller.role == .user, let userID = caller.accountUserID else { return .stranger }
        if userID == minorID { return .minor }
        return try await GuardianLinkStore.exists(guardian: userID, minor: minorID, on: tx)
            ? .guardian : .stranger
    }

    /// The guardian's id when `caller` is a guardian of `minorID`; refuses the minor with GUARDIANS_ONLY,
    /// anyone else with NOT_FOUND.
    @discardableResult
    static func requireGuardian(_ caller: Caller, of minorID: UserID, on tx: PostgresTransaction) async throws
        -> UserID
    {
        switch try await of(caller, to: minorID, on: tx) {
        case .guardian: if let guardianID = caller.accountUserID { return guardianID }
        case .minor: throw FamilyError.guardiansOnly
        case .stranger: break
        }
        throw FamilyError.userNotFound
    }
}
