import KindredAPI
import KindredHandlers
import KindredRPC
import KindredRuntime

/// What a member is on a baby profile, as family says.
enum BabyMemberRole: Sendable, Equatable {
    case owner
    case follower
}

/// Baby-profile membership as gamification needs it: always asked of family, never assumed.
protocol BabyMemberships: Sendable {
    /// `user`'s role on `profile`; nil when they are not a member or there is no such profile.
    func role(of user: UserID, in profile: BabyProfileID) async throws -> BabyMemberRole?

    /// Whether `user` and `other` are members of one active baby profile.
    func share(_ user: UserID, with other: UserID) async throws -> Bool
}

extension BabyMemberships {
    /// Nothing when `user` owns `profile`; a follower is refused (BABY_PROFILE_OWNERS_ONLY), anyone else told
    /// the profile does not exist: the owners run the games on their profile.
    func requireOwner(_ user: UserID, of profile: BabyProfileID) async throws {
        switch try await role(of: user, in: profile) {
        case nil: throw GamificationError.babyProfileNotFound
        case .follower: throw GamificationError.babyProfileOwnersOnly
        case .owner: return
        }
    }
}

/// Family's `GetBabyMembership`, asked with gamification's service token. A member's role is kept 10 s (at
/// most 10,000): a removed member may still vote or read a reveal that long, which the product accepts; a
/// "not a member" is never kept, so a new follower is never refused.
struct FamilyBabyMemberships: BabyMemberships {
    let client: Kindred_Family_V1_FamilyService.Client
    let credentials: ServiceCredentials
    let cache: RecentAnswers<String, BabyMemberRole>

    init(
        familyTarget: String, credentials: ServiceCredentials,
        cache: RecentAnswers<String, BabyMemberRole> = RecentAnswers(lifetime: .seconds(10), capacity: 10_000)
    ) throws(RPCError) {
        client = Kindred_Family_V1_FamilyService.Client(try RPCClient(target: familyTarget))
        self.credentials = credentials
        self.cache = cache
    }

    func role(of user: UserID, in profile: BabyProfileID) async throws -> BabyMemberRole? {
        let key = "\(profile) \(user)"
        if let known = cache.answer(for: key) { return known }
        let answer = try await PeerCall.run("family") {
            try await client.getBabyMembership(
                .init(profileID: profile.description, userID: user.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true)
            ).role
        }
        let role: BabyMemberRole? =
            switch answer {
            case .owner: .owner
            case .follower: .follower
            case .unspecified, .unrecognized: nil
            }
        if let role { cache.remember(role, for: key) }
        return role
    }

    /// Family's `SharesBabyProfile`, asked each time: a profile's counters are read one profile page at a
    /// time, not in bursts, and a member who left must stop seeing them at once.
    func share(_ user: UserID, with other: UserID) async throws -> Bool {
        try await PeerCall.run("family") {
            try await client.sharesBabyProfile(
                .init(userID: user.description, otherUserID: other.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true)
            ).shared
        }
    }
}
