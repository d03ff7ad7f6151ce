import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC

/// Guardian sessions: what a right PIN opens, for 10 minutes, on one minor, for the user who typed it. They
/// open the minor's settings and change their controls and PIN; they are checked here, once, for all three.
enum GuardianSessions {
    static let lifetime: Duration = .seconds(10 * 60)

    /// A session as `VerifyGuardianPin` answers it.
    struct Opened: Sendable {
        let token: OpaqueToken
        let expiresAt: Date
    }

    /// Opens a session on `minorID` for `caller`, at `now`.
    static func open(_ minorID: UserID, for caller: Caller, now: Date, on tx: PostgresTransaction)
        async throws
        -> Opened
    {
        // Only a person with an account gets past `MinorAccess`, so a session always has an opener.
        guard let openedBy = caller.accountUserID else { throw FamilyError.userNotFound }
        let expiresAt = now.addingTimeInterval(Double(lifetime.components.seconds))
        let token = try await GuardianSessionStore.open(
            minorID, openedBy: openedBy, now: now, expiresAt: expiresAt, on: tx)
        return Opened(token: token, expiresAt: expiresAt)
    }

    /// The token `text` presents, or nil when it could name no session: empty, or longer than any credential
    /// (no point hashing it).
    static func presented(_ text: String) -> OpaqueToken? {
        guard !text.isEmpty, text.utf8.count <= FieldViolations.longestCredential else { return nil }
        return OpaqueToken(text: text)
    }

    /// Refuses unless `text` is a session on `minorID` opened by `caller` and unexpired at `now`; the caller
    /// has just been found to guard the minor still.
    static func require(
        _ text: String, on minorID: UserID, by caller: Caller, now: Date, in tx: PostgresTransaction
    ) async throws {
        guard !text.isEmpty else { throw FamilyError.sessionRefused(.missing) }
        var found: GuardianSessionStore.Found?
        if let token = presented(text) {
            found = try await GuardianSessionStore.find(token, minorID: minorID, on: tx)
        }
        try accept(found, by: caller, now: now)
    }

    /// Refuses `found`, the session a presented token names on the minor (nil: none there), unless `caller`
    /// opened it and it is unexpired at `now`. A session of another user, or on another minor, is as good as
    /// none.
    static func accept(_ found: GuardianSessionStore.Found?, by caller: Caller, now: Date) throws(RPCError) {
        guard let found, found.openedBy == caller.accountUserID else {
            throw FamilyError.sessionRefused(.invalid)
        }
        guard StoredInstant.isAhead(found.expiresAt, of: now) else {
            throw FamilyError.sessionRefused(.expired)
        }
    }
}
