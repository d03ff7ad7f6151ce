import KindredHandlers

// Family's own kinds of id. A minor's id is a user id (`UserID`): the same person is a minor, then an adult,
// under the one id identity issued.
extension IDKind {
    /// A guardian's request-answering approval of something a minor asked for.
    enum Approval {}
    /// A link between a guardian and a minor.
    enum GuardianLink {}
    /// A notice in somebody's in-app inbox.
    enum Notification {}
    /// A phone registered for push messages.
    enum PushDevice {}
}

typealias ApprovalID = ID<IDKind.Approval>
typealias GuardianLinkID = ID<IDKind.GuardianLink>
typealias NotificationID = ID<IDKind.Notification>
typealias PushDeviceID = ID<IDKind.PushDevice>
