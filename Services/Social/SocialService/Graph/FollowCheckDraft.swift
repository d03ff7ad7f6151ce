import KindredHandlers
import KindredMessages
import KindredRPC

/// An `IsFollowingRequest` whose fields were checked: the follower and at most `maximumCandidates` users to ask
/// about, in the request's order.
struct FollowCheckDraft: Sendable, Equatable {
    /// The most users one `IsFollowing` asks about.
    static let maximumCandidates = 500

    let follower: UserID
    let candidates: [UserID]
    /// The text that named each of `candidates`, answered as the caller wrote it.
    let candidateTexts: [String]

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_IsFollowingRequest) throws(RPCError) {
        var violations = FieldViolations()
        let followerID: UserID? = violations.id("follower_user_id", request.followerUserID)
        var candidateIDs: [UserID]? = []
        if request.userIds.count > Self.maximumCandidates {
            violations.add("user_ids", "must name at most \(Self.maximumCandidates) users")
        } else {
            candidateIDs = violations.ids("user_ids", request.userIds)
        }
        (follower, candidates) = try violations.throwIfAny(followerID, candidateIDs)
        candidateTexts = request.userIds
    }
}
