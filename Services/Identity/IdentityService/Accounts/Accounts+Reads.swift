import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetMe`, `GetAccount` and `GetAgeRange`: what a caller may see of an account.
extension Accounts {
    /// What `GetAccount` shows: the whole account or its public face.
    enum View: Sendable, Equatable {
        case ownerView(AccountRecord)
        case publicView(AccountStore.PublicAccount)
    }

    /// The caller's own account.
    func me(_ caller: Caller) async throws -> AccountRecord {
        guard let accountID = caller.accountUserID,
            let account = try await AccountStore.account(
                id: accountID, now: clock.now, dates: birthDates, emails: emails, on: database)
        else { throw IdentityError.noAccount }
        return account
    }

    /// Account `userID` as `caller` may see it: the owner's view for the owner, admins and services, the public
    /// view for everyone else, read without the date of birth, which it does not show.
    func account(_ userID: UserID, as caller: Caller) async throws -> View {
        guard caller.accountUserID == userID || caller.isStaff else {
            guard let account = try await AccountStore.publicAccount(id: userID, on: database) else {
                throw IdentityError.accountNotFound
            }
            return .publicView(account)
        }
        guard
            let account = try await AccountStore.account(
                id: userID, now: clock.now, dates: birthDates, emails: emails, on: database)
        else {
            throw IdentityError.accountNotFound
        }
        return .ownerView(account)
    }

    /// The age band and parental controls of `userID` (nil: the caller), never the date of birth. Only the
    /// user, admins and services may ask: a band tells who is a minor, which strangers must not learn.
    func ageRange(of userID: UserID?, as caller: Caller) async throws
        -> (band: TokenClaims.AgeBand, parentalControls: Bool)
    {
        // A service has no account of its own, so it must name one; an operator client's id is no user id.
        guard let subject = userID ?? caller.accountUserID else {
            throw FieldViolations.single(
                "user_id", caller.role == .service ? "is required" : "must be a user id (a UUID)")
        }
        guard subject == caller.accountUserID || caller.isStaff else {
            throw IdentityError.ageRangeNotVisible
        }
        guard let range = try await AccountStore.ageRange(id: subject, on: database) else {
            throw caller.accountUserID == subject ? IdentityError.noAccount : IdentityError.accountNotFound
        }
        return range
    }
}

extension FieldViolations {
    /// The user id in `text`, parsed once at the edge; nil after recording `user_id` when it is empty or not
    /// a UUID, in identity's own words.
    mutating func userID(_ text: String) -> UserID? {
        if let id = UserID(text) { return id }
        add("user_id", text.isEmpty ? "is required" : "must be a user id (a UUID)")
        return nil
    }

    /// The user id in `text`, or INVALID_ARGUMENT naming `user_id`.
    static func userID(_ text: String) throws(RPCError) -> UserID {
        var violations = FieldViolations()
        guard let id = violations.userID(text) else { throw violations.error! }
        return id
    }
}

extension Caller {
    /// Admins and services see whole accounts.
    var isStaff: Bool { role == .admin || role == .service }
}
