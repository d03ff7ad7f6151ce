import KindredHandlers
import KindredPostgres

/// The check every baby-profile RPC starts with: whether the caller belongs to the profile, and as what.
/// A stranger gets `BABY_PROFILE_NOT_FOUND` on every RPC, the answer an unknown id gets; a follower asking for
/// an owner's action gets `BABY_PROFILE_OWNERS_ONLY`, since they know the profile exists.
struct BabyMembership: Sendable {
    let database: PostgresPool

    /// Whether `user` and `other` belong to one active profile (as owner or follower, either way round).
    func share(_ user: UserID, with other: UserID) async throws -> Bool {
        try await BabyMemberStore.share(user, with: other, on: database)
    }

    /// The caller's role on `profile`; NOT_FOUND when they are not a member.
    func requireMember(_ user: UserID, of profile: BabyProfileID) async throws -> BabyRole {
        guard let role = try await BabyMemberStore.role(of: user, in: profile, on: database) else {
            throw FamilyError.babyProfileNotFound
        }
        return role
    }

    /// `user`'s role on `profile`; nil when they are not a member, or the profile is gone or deactivated.
    func role(of user: UserID, in profile: BabyProfileID) async throws -> BabyRole? {
        try await BabyMemberStore.role(of: user, in: profile, on: database)
    }

    /// Passes only for an owner of `profile`.
    func requireOwner(_ user: UserID, of profile: BabyProfileID) async throws {
        guard try await requireMember(user, of: profile) == .owner else {
            throw FamilyError.babyProfileOwnersOnly
        }
    }

    /// The rows `page` reads of the profiles a list covers (`scope`), each decoded by `row`. For one named
    /// profile the membership check is part of the page's statement (`BabyMemberStore.readAsMember`): one statement,
    /// NOT_FOUND for a stranger, who learns nothing from the page.
    func scoped<Row>(
        _ user: UserID, profile: BabyProfileID?, row: (PostgresRow) throws -> Row,
        _ page: BabyMemberStore.ProfilesPage
    ) async throws -> [Row] {
        guard let profile else {
            return try await BabyMemberStore.read(page(scope(user, profile: nil)), on: database, row: row)
        }
        guard
            let read = try await BabyMemberStore.readAsMember(
                page([profile]), readBy: user, of: profile, on: database, row: row)
        else { throw FamilyError.babyProfileNotFound }
        return read.rows
    }

    /// The caller's role on `profile` inside `tx`, held until it ends; NOT_FOUND when they are not a member.
    static func holdMember(_ user: UserID, of profile: BabyProfileID, in tx: PostgresTransaction) async throws
        -> BabyRole
    {
        guard let role = try await BabyMemberStore.holdRole(of: user, in: profile, tx: tx) else {
            throw FamilyError.babyProfileNotFound
        }
        return role
    }

    /// `holdMember`, in the same statement reading the names the caller's activity entries show, so that
    /// `BabyActivityLog.record` sends the entry with the COMMIT.
    static func holdAuthor(
        _ user: UserID, of profile: BabyProfileID, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> ActivityAuthor {
        guard let author = try await BabyActivityStore.holdAuthor(user, of: profile, seals: seals, in: tx)
        else {
            throw FamilyError.babyProfileNotFound
        }
        return author
    }

    /// `holdOwner`, in the same statement reading the names the owner's activity entries show.
    static func holdOwningAuthor(
        _ user: UserID, of profile: BabyProfileID, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> ActivityAuthor {
        let author = try await holdAuthor(user, of: profile, seals: seals, in: tx)
        guard author.role == .owner else { throw FamilyError.babyProfileOwnersOnly }
        return author
    }

    /// Passes only for an owner of `profile`, holding the membership until `tx` ends.
    static func holdOwner(_ user: UserID, of profile: BabyProfileID, in tx: PostgresTransaction) async throws
    {
        guard try await holdMember(user, of: profile, in: tx) == .owner else {
            throw FamilyError.babyProfileOwnersOnly
        }
    }

    /// The profiles a list covers: `profile` alone when given (NOT_FOUND for a stranger), otherwise every
    /// profile the caller belongs to (the app's baby filter, and its reset).
    func scope(_ user: UserID, profile: BabyProfileID?) async throws -> [BabyProfileID] {
        if let profile {
            _ = try await requireMember(user, of: profile)
            return [profile]
        }
        return try await BabyMemberStore.memberships(of: user, on: database).map(\.profile)
    }
}
