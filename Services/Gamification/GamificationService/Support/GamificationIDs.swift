import KindredHandlers

// Gamification's own kinds of id; a user's is KindredHandlers' `UserID`.
extension IDKind {
    /// A challenge: personal, among friends, or popular.
    enum Challenge {}
}

typealias ChallengeID = ID<IDKind.Challenge>
