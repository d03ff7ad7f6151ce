import KindredHandlers

// Family's own kinds of id. A minor's id is a user id (`UserID`): the same person is a minor, then an adult,
// under the one id identity issued.
extension IDKind {
    /// A guardian's request-answering approval of something a minor asked for.
    enum Approval {}
    /// A link between a guardian and a minor.
    enum GuardianLink {}
    /// A minor's invitation mailed to a would-be guardian.
    enum GuardianInvitation {}
    /// A notice in somebody's in-app inbox.
    enum Notification {}
    /// A phone registered for push messages.
    enum PushDevice {}
    /// A baby's private profile.
    enum BabyProfile {}
    /// An owner's invitation to join a baby profile, as a co-owner or a follower.
    enum BabyInvitation {}
    /// An event on a baby profile's calendar.
    enum CalendarEvent {}
    /// A comment on a calendar event, a photo or the arrival announcement.
    enum Comment {}
    /// An item of a baby profile's registry.
    enum RegistryItem {}
    /// A photo of a baby profile's gallery.
    enum Photo {}
    /// One entry of a baby profile's recent activity.
    enum BabyActivity {}
}

typealias ApprovalID = ID<IDKind.Approval>
typealias GuardianLinkID = ID<IDKind.GuardianLink>
typealias GuardianInvitationID = ID<IDKind.GuardianInvitation>
typealias NotificationID = ID<IDKind.Notification>
typealias PushDeviceID = ID<IDKind.PushDevice>
typealias BabyProfileID = ID<IDKind.BabyProfile>
typealias BabyInvitationID = ID<IDKind.BabyInvitation>
typealias CalendarEventID = ID<IDKind.CalendarEvent>
typealias CommentID = ID<IDKind.Comment>
typealias RegistryItemID = ID<IDKind.RegistryItem>
typealias PhotoID = ID<IDKind.Photo>
typealias BabyActivityID = ID<IDKind.BabyActivity>

/// A baby's expected or actual birth date.
typealias BabyBirthDate = CalendarDate
