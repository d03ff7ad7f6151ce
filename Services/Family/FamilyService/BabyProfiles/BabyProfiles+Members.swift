import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `ListBabyProfileMembers`, `LeaveBabyProfile` and `RemoveBabyProfileMember`.
extension BabyProfiles {
    /// A page of `profile`'s members for one of them: owners first, then followers, in the order they joined.
    func members(of profile: BabyProfileID, page request: Kindred_Common_V1_PageRequest?, as reader: UserID)
        async throws -> Kindred_Family_V1_ListBabyProfileMembersResponse
    {
        let page = try BabyPage(request, list: "baby_members:\(profile)", fields: 3)
        let position: BabyMemberPosition<IDKind.User>? = try page.memberPosition()
        guard
            let fetched = try await BabyMemberStore.readAsMember(
                BabyMemberStore.page(of: profile, after: position, limit: page.size + 1), readBy: reader,
                of: profile, on: database, row: BabyMemberStore.member)
        else { throw FamilyError.babyProfileNotFound }
        let (members, next) = page.cut(fetched.rows) { member in
            page.token(
                after: BabyMemberPosition(role: member.role, joinedAt: member.joinedAt, id: member.user))
        }
        return Kindred_Family_V1_ListBabyProfileMembersResponse(members: members.map(\.proto), page: next)
    }

    /// `member` leaves `profile`: a follower at any time, an owner only while another owner remains.
    func leave(_ profile: BabyProfileID, member: UserID) async throws {
        try await database.transaction { tx in
            // The profile's row first: two owners leaving at once take turns, and the second is the sole one.
            _ = try await BabyProfileStore.lock(profile, in: tx)
            if try await BabyMembership.holdMember(member, of: profile, in: tx) == .owner {
                let owners = try await BabyMemberStore.memberIDs(of: profile, role: .owner, on: tx)
                guard owners.contains(where: { $0 != member }) else { throw FamilyError.soleOwner }
            }
            try await BabyMemberStore.remove(member, from: profile, in: tx)
        }
    }

    /// An owner removes the follower `member`; owners cannot be removed (they leave by themselves).
    func remove(_ member: UserID, from profile: BabyProfileID, by owner: UserID) async throws {
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profile, in: tx)
            switch try await BabyMemberStore.holdRole(of: member, in: profile, tx: tx) {
            case nil: throw FamilyError.babyMemberNotFound
            case .owner: throw FamilyError.cannotRemoveOwner
            case .follower: try await BabyMemberStore.remove(member, from: profile, in: tx)
            }
        }
    }
}

extension BabyMemberStore.Member {
    /// The member as the wire carries it.
    var proto: Kindred_Family_V1_BabyMember {
        Kindred_Family_V1_BabyMember(
            userID: user.description, displayName: displayName, role: role.proto,
            relationship: relationship.kind, relationshipOther: relationship.other,
            joinedAt: joinedAt)
    }
}
