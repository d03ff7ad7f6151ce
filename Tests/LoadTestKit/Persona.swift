/// What a virtual user is, fixed by its place in the seed (`of(user:families:)`), and the actions it picks
/// from between think times (`Mix`). Every persona holds WatchMessages; the baby personas also hold
/// WatchProfileActivity on their profiles.
public enum Persona: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
    /// An adult reading their profile, friends and feed, messaging friends, now and then signing in again
    /// with their password.
    case adult
    /// A screen-time user: uploads its phone's usage and reads its friends' leaderboard.
    case screenTime = "screen_time"
    /// A grandparent following two baby profiles: reads the home, calendar and registry, comments, RSVPs,
    /// buys a registry item (and takes the purchase back, so there is always something left to buy), looks at
    /// the gallery (a photo's bytes downloaded) and the arrival announcement, and squishes them.
    case grandparent
    /// A parent owning a baby profile: reads its home and gallery, posts calendar events, registry items and
    /// comments, now and then a small photo, and announces the arrival (once; later tries are refused).
    case babyOwner = "baby_owner"
    /// A restricted teenager (`SeededUsers.isMinor`): reads the feed, messages friends, now and then someone
    /// they do not follow (refused by the controls), and asks to join a stranger's public event (which waits for
    /// their guardian's approval, then joins or is refused).
    case teen
    /// The teenager's guardian: an adult's actions, a look at the teenager's controls and approvals, and an
    /// answer to the approval waiting.
    case guardian

    public enum Action: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
        case getMe, listFriends, listFeed, sendMessage, signInWithPassword
        case uploadUsage, getFriendLeaderboard
        case getHome, listCalendarEvents, listRegistryItems, addComment, setRsvp, purchaseRegistryItem
        case createCalendarEvent, createRegistryItem
        case viewGallery, squishPhoto, uploadPhoto, viewArrival, squishArrival, announceArrival
        case messageStranger, joinEvent, getParentalControlsStatus, listApprovalRequests, answerApproval
    }

    /// User `index`'s persona, the same in every run of a seed: in each group of ten users (`BabyFamilies`)
    /// the first owns a baby profile and the next three are its grandparents, when the seed has baby profiles
    /// for the group (otherwise they are adults); the fifth and the tenth are screen-time users, the eighth a
    /// guardian of the ninth, a teenager; the rest adults.
    public static func of(user index: Int, families: BabyFamilies) -> Persona {
        if families.ownedProfile(of: index) != nil { return .babyOwner }
        if !families.followedProfiles(of: index).isEmpty { return .grandparent }
        if SeededUsers.isMinor(index) { return .teen }
        if SeededUsers.isMinor(index + 1) { return .guardian }
        return screenTimeSlots.contains(index % BabyFamilies.groupSize) ? .screenTime : .adult
    }

    /// The places in each group of ten of the screen-time users, whose usage history the seed writes.
    public static let screenTimeSlots = [4, 9]

    /// Whether the persona holds WatchProfileActivity.
    public var watchesProfiles: Bool { self == .grandparent || self == .babyOwner }
}
