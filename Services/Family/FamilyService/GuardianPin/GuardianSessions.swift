import FoundationEssentials
import KindredAuth
import KindredPostgres
import KindredRuntime

/// Guardian sessions: what a right PIN opens, for 10 minutes, on one minor, for the user who typed it. They
/// change the minor's controls and PIN; they are checked here, once, for both.
enum GuardianSessions {
    static let lifetime: Duration = .seconds(10 * 60)

    /// A session as `VerifyGuardianPin` answers it.
    struct Opened: Sendable {
        let token: OpaqueToken
        let expiresAt: Date
    }

    /// Opens a session on `minorID` for `caller`, at `now`.
    static func open(_ minorID: String, for caller: Caller, now: Date, on tx: PostgresTransaction)
        async throws
        -> Opened
    {
        let expiresAt = now.addingTimeInterval(Double(lifetime.components.seconds))
        let token = try await GuardianSessionStore.open(
            minorID, openedBy: caller.userID.lowercased(), now: now, expiresAt: expiresAt, on: tx)
        return Opened(token: token, expiresAt: expiresAt)
    }

    /// Refuses unless `text` is a session on `minorID` opened by `caller` and unexpired at `now`; the caller
    /// has just been found to guard the minor still. A session of another user, or on another minor, is as
    /// good as none.
    static func require(
        _ text: String, on minorID: String, by caller: Caller, now: Date, in tx: PostgresTransaction
    ) async throws {
        guard !text.isEmpty else { throw FamilyError.sessionRefused(.missing) }
        guard text.utf8.count <= FieldViolations.longestCredential,
            let found = try await GuardianSessionStore.find(
                OpaqueToken(text: text), minorID: minorID, on: tx),
            found.openedBy == caller.userID.lowercased()
        else { throw FamilyError.sessionRefused(.invalid) }
        guard StoredInstant.isAhead(found.expiresAt, of: now) else {
            throw FamilyError.sessionRefused(.expired)
        }
    }
}
