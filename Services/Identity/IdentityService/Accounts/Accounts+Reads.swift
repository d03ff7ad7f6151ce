import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetMe`, `GetAccount` and `GetAgeRange`: what a caller may see of an account.
extension Accounts {
    /// What `GetAccount` shows: the whole account or its public face.
    enum View: Sendable, Equatable {
        case ownerView(AccountRecord)
        case publicView(AccountRecord)
    }

    /// The caller's own account.
    func me(_ caller: Caller) async throws -> AccountRecord {
        guard caller.role != .service,
            let account = try await AccountStore.account(id: caller.userID, now: clock.now, on: database)
        else { throw IdentityError.noAccount }
        return account
    }

    /// Account `userID` as `caller` may see it: the owner's view for the owner, admins and services, the public
    /// view for everyone else.
    func account(_ userID: String, as caller: Caller) async throws -> View {
        try Self.requireUserID(userID)
        guard let account = try await AccountStore.account(id: userID, now: clock.now, on: database) else {
            throw IdentityError.accountNotFound
        }
        return caller.userID == userID || caller.isStaff ? .ownerView(account) : .publicView(account)
    }

    /// The age band and parental controls of `userID` (empty: the caller), never the date of birth. Only the
    /// user, admins and services may ask: a band tells who is a minor, which strangers must not learn.
    func ageRange(of userID: String, as caller: Caller) async throws
        -> (band: TokenClaims.AgeBand, parentalControls: Bool)
    {
        // A service has no account of its own, so it must name one.
        let subject = userID.isEmpty && caller.role != .service ? caller.userID : userID
        try Self.requireUserID(subject)
        guard subject == caller.userID || caller.isStaff else {
            throw IdentityError.ageRangeNotVisible
        }
        guard let range = try await AccountStore.ageRange(id: subject, on: database) else {
            throw caller.userID == subject ? IdentityError.noAccount : IdentityError.accountNotFound
        }
        return range
    }

    /// A user id must be a UUID before it is looked up.
    static func requireUserID(_ userID: String) throws(RPCError) {
        var violations = FieldViolations()
        violations.requireUserID(userID)
        try violations.throwIfAny()
    }
}

extension FieldViolations {
    /// Records `user_id` unless `userID` is a user id (a UUID).
    mutating func requireUserID(_ userID: String) {
        if userID.isEmpty {
            add("user_id", "is required")
        } else if !UUIDv7.isWellFormed(userID) {
            add("user_id", "must be a user id (a UUID)")
        }
    }
}

extension Caller {
    /// Admins and services see whole accounts.
    var isStaff: Bool { role == .admin || role == .service }
}
