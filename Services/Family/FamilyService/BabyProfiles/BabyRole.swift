/// What a member may do on a baby profile: owners create, edit and delete content; followers read and
/// interact (RSVP, comment, buy, squish). Stored as `family.baby_members.role`.
enum BabyRole: Int, Sendable {
    case owner = 1
    case follower = 2
}
