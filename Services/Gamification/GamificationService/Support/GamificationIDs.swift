import KindredHandlers

// Gamification's own kinds of id; a user's is KindredHandlers' `UserID`.
extension IDKind {
    /// A challenge: personal, among friends, or popular.
    enum Challenge {}
    /// A baby profile; family owns the profiles.
    enum BabyProfile {}
    /// A name suggested on a baby profile.
    enum BabyNameSuggestion {}
}

typealias ChallengeID = ID<IDKind.Challenge>
typealias BabyProfileID = ID<IDKind.BabyProfile>
typealias BabyNameSuggestionID = ID<IDKind.BabyNameSuggestion>
