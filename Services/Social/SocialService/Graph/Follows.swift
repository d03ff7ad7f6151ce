import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// Follows: one-way, needing no acceptance. Following adds an edge, so it runs under the pair's lock.
struct Follows: Sendable {
    /// One page of a follows list, as `ListFollowers` and `ListFollowing` answer it.
    typealias Page = (follows: [Kindred_Social_V1_Follow], page: Kindred_Common_V1_PageResponse)

    let context: SocialContext

    /// `Follow`: `me` follows `userID`, who must exist, not be `me`, and not be blocked either way. Following
    /// someone followed already changes nothing.
    func follow(_ userID: UserID, as me: UserID) async throws {
        // The follower is shown in the followee's list, so social must know them too.
        async let follower = context.people.person(me)
        let followee = try await context.counterpart(userID, of: me)
        _ = try await follower
        let now = context.clock.now
        try await context.changingPair(me, followee.id) { tx in
            try await RelationshipStore.between(me, followee.id, on: tx).requireNoBlock()
            try await FollowStore.follow(me, followee.id, at: now, in: tx)
        }
    }

    /// `Unfollow`: whether `me` followed `userID` or not, `me` does not now.
    func unfollow(_ userID: UserID, as me: UserID) async throws {
        try await FollowStore.unfollow(me, userID, on: context.database)
    }

    /// `ListFollowers` or `ListFollowing` as `draft` asks, most recent first, a page at a time; NOT_YOUR_LIST
    /// for anyone's but `me`'s.
    func list(_ draft: FollowListDraft, as me: UserID) async throws -> Page {
        guard draft.owner == me else { throw SocialError.notYourList }
        let page = draft.page
        let served = page.serve(try await GraphStore.entries(page, on: context.database))
        return (
            served.entries.map { Kindred_Social_V1_Follow(person: $0.person, since: $0.since) },
            Kindred_Common_V1_PageResponse(nextPageToken: served.nextPageToken)
        )
    }

    /// `IsFollowing`, for a service or the follower: which of the draft's users the follower follows, in the
    /// request's order and as it wrote them. One statement, no call to identity.
    func isFollowing(_ draft: FollowCheckDraft, as caller: Caller) async throws -> [String] {
        let (follower, candidates) = (draft.follower, draft.candidates)
        guard caller.role == .service || caller.accountUserID == follower else {
            throw SocialError.notYourRelationship
        }
        guard !candidates.isEmpty else { return [] }
        let followed = try await FollowStore.followed(by: follower, among: candidates, on: context.database)
        return zip(draft.candidateTexts, candidates).filter { followed.contains($0.1) }.map(\.0)
    }
}
