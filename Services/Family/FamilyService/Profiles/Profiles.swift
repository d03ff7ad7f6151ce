import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// The profile rules: everyone signed in sees a profile's public part, the user, their guardians and services
/// see the names too, and only the user changes it. Every well-formed user id has a profile, empty until its
/// user writes one: family does not ask identity whether an account exists on each read.
struct Profiles: Sendable {
    let database: PostgresPool
    let clock: WallClock
    /// Seals and opens the first and last names.
    let names: ProfileNames

    /// `subject`'s profile, as `caller` may see it.
    func profile(of subject: UserID, as caller: Caller) async throws -> Kindred_Family_V1_Profile {
        let withNames = try await mayReadNames(of: subject, caller: caller)
        let row = try await ProfileStore.read(subject, names: withNames ? names : nil, on: database)
        return row.proto(of: subject, withNames: withNames)
    }

    /// Changes the fields `mask` names to their values in `profile`, on the caller's own profile.
    func update(mask: [String], to profile: Kindred_Family_V1_Profile?, as caller: Caller) async throws
        -> Kindred_Family_V1_Profile
    {
        guard let owner = caller.accountUserID else { throw FamilyError.accountRequired }
        let (fields, row) = try Self.changes(mask: mask, profile: profile ?? .init(), owner: owner)
        let now = clock.now
        let stored = try await database.transaction { tx in
            try await ProfileStore.write(row, fields: fields, of: owner, names: names, now: now, in: tx)
        }
        return stored.proto(of: owner, withNames: true)
    }

    /// The user, their guardians and services see first and last names; nobody else.
    private func mayReadNames(of subject: UserID, caller: Caller) async throws -> Bool {
        if caller.role == .service { return true }
        guard let reader = caller.accountUserID else { return false }
        if reader == subject { return true }
        return try await GuardianLinkStore.exists(guardian: reader, minor: subject, on: database)
    }

    /// The profile a request's `user_id` names: the caller's own when empty; INVALID_ARGUMENT naming `user_id`
    /// when it is malformed, or empty from a caller without an account.
    static func subject(named userID: String, for caller: Caller) throws(RPCError) -> UserID {
        if userID.isEmpty {
            guard let own = caller.accountUserID else {
                throw FieldViolations.single("user_id", "is required")
            }
            return own
        }
        return try FieldViolations.id("user_id", userID)
    }

    /// The named fields and a row holding their new values (the others empty), or INVALID_ARGUMENT naming
    /// every unknown mask path and every refused value.
    private static func changes(mask: [String], profile: Kindred_Family_V1_Profile, owner: UserID)
        throws(RPCError) -> (Set<ProfileField>, ProfileStore.Row)
    {
        var violations = FieldViolations()
        if mask.isEmpty { violations.add("update_mask", "must name at least one field") }
        if !profile.userID.isEmpty, UserID(profile.userID) != owner {
            violations.add("profile.user_id", "must be empty or the caller's own")
        }
        var fields = Set<ProfileField>()
        var row = ProfileStore.Row()
        for path in mask {
            guard let field = ProfileField(rawValue: path) else {
                violations.add("update_mask", "names an unknown field \"\(path)\"")
                continue
            }
            guard fields.insert(field).inserted else { continue }
            let value = field.value(in: profile)
            violations.add("profile.\(field.rawValue)", field.problem(with: value))
            field.assign(value, to: &row)
        }
        try violations.throwIfAny()
        return (fields, row)
    }
}

extension ProfileStore.Row {
    /// The profile as the wire carries it, with the names left empty unless `withNames`.
    func proto(of userID: UserID, withNames: Bool) -> Kindred_Family_V1_Profile {
        Kindred_Family_V1_Profile(
            userID: userID.description, displayName: displayName, firstName: withNames ? firstName : "",
            lastName: withNames ? lastName : "", avatarURL: avatarURL, bio: bio,
            parentalControlsActive: parentalControlsActive,
            updatedAt: updatedAt)
    }
}
