import Foundation
import KindredHandlers
import KindredPostgres
import KindredRPC
@testable import ServiceTestSupport
import Testing

/// The people and things the matrix calls about: an owner and a follower of a baby profile (with an event, a
/// registry item, a comment, a photo and a name suggestion on it), a minor with a guardian, another family's
/// adult, a bystander, a conversation, a private social event, the owner's challenge the follower (a friend)
/// joined, an approval request and friend requests.
struct Cast: Sendable {
    var ownerID = "", followerID = "", minorID = ""
    /// An adult nobody calls as: the one others befriend, follow, block and report.
    var bystanderID = ""
    var profile = "", event = "", item = "", comment = "", photo = "", suggestion = ""
    var conversation = "", socialEvent = "", challenge = "", approval = "", guardianLink = ""
    /// A popular challenge the admin created, open to everyone.
    var popularChallenge = ""
    /// Pending friend requests, one for each method that ends one: the stranger's and the guardian's to the
    /// owner (to accept, to decline), the owner's to the minor (to cancel). The follower is the owner's friend.
    var acceptRequest = "", declineRequest = "", cancelRequest = ""
    var ownerUsername = ""

    /// The same cast with every thing and every person replaced by ids that name nothing: what a caller who
    /// may not see a thing must be answered as.
    var nothing: Cast {
        var copy = self
        for path in [
            \Cast.profile, \.event, \.item, \.comment, \.photo, \.suggestion, \.conversation, \.socialEvent,
            \.challenge, \.approval, \.guardianLink, \.acceptRequest, \.declineRequest,
            \.cancelRequest, \.popularChallenge, \.minorID, \.ownerID, \.followerID,
            \.bystanderID,
        ] {
            copy[keyPath: path] = UUIDv7.generate(at: Date())
        }
        return copy
    }
}

/// Makes the cast's things through the services' own RPCs, except the profile with its members (the stack's
/// `babyProfile`, straight to the tables, as the baby tests do) and a photo (a row: no cell needs its bytes).
struct CastMaker {
    let stack: GamificationTestStack
    let matrix: MatrixServer

    /// A new baby profile of `owner` followed by `follower`, with a calendar event, a registry item, the
    /// follower's comment and name suggestion, and a photo: the whole cast for a row that destroys what it names.
    func profileWorld(into cast: inout Cast, owner: TestUser, follower: TestUser) async throws {
        let base = stack.social.base
        cast.profile = try await base.babyProfile(ownedBy: owner, followers: [follower]).description
        cast.event = try await id(
            "FamilyService/CreateCalendarEvent",
            [
                "request_id": newRequestID, "profile_id": .text(cast.profile),
                "event.name": "Scan", "event.start_time.seconds": inAMonth, "event.time_zone": "UTC",
            ], owner)
        cast.item = try await id(
            "FamilyService/CreateRegistryItem",
            [
                "request_id": newRequestID, "profile_id": .text(cast.profile),
                "item.name": "Pram",
            ],
            owner)
        cast.comment = try await id(
            "FamilyService/AddComment",
            [
                "request_id": newRequestID, "target.profile_id": .text(cast.profile),
                "target.calendar_event_id": .text(cast.event), "text": "See you there",
            ], follower)
        cast.suggestion = try await id(
            "GamificationService/SuggestBabyName",
            ["profile_id": .text(cast.profile), "name": "Ada", "gender": 1], follower)
        cast.photo = UUIDv7.generate(at: Date())
        try await stack.pool.query(
            """
            INSERT INTO family.baby_photos
                (profile_id, photo_id, uploaded_by, media_type, width, height, byte_count, request_id, created_at)
            VALUES (\(cast.profile)::uuid, \(cast.photo)::uuid, \(owner.id)::uuid, 'image/png', 1, 1, 1,
                    \(cast.photo), now())
            """)
    }

    /// The id in the response of `method` called as `user` (the first field of the first field).
    func id(_ method: String, _ fields: [String: FieldValue], _ user: TestUser, at path: [Int] = [1, 1])
        async throws -> String
    {
        let answer = try await matrix.call(method, fields, token: user.accessToken)
        return try #require(
            answer.text(at: path), "making the cast: \(method) answered \(answer) “\(answer.message)”")
    }
}
