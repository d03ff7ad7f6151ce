import LoadTestKit

/// What a virtual user is, and what it does between think times, with the weights of each action. Each
/// persona holds the streams its app holds (every persona: WatchMessages, whose deliveries are measured).
enum Persona: String, CaseIterable, Sendable {
    /// An adult reading their profile, friends and feed, and messaging friends.
    case adult
    /// A screen-time user: uploads its phone's usage and reads its friends' leaderboard.
    case screenTime = "screen_time"

    enum Action: String, Sendable {
        case getMe, listFriends, listFeed, sendMessage, uploadUsage, getFriendLeaderboard
    }

    var actions: WeightedMix<Action> {
        switch self {
        case .adult:
            WeightedMix([(.getMe, 1), (.listFriends, 2), (.listFeed, 4), (.sendMessage, 3)])!
        case .screenTime:
            WeightedMix([(.uploadUsage, 4), (.getFriendLeaderboard, 3), (.getMe, 1), (.listFriends, 1)])!
        }
    }

    /// The share of users of each persona: 80% adults, 20% screen-time users.
    static let shares = WeightedMix([(Persona.adult, 4), (Persona.screenTime, 1)])!

    /// User `index`'s persona, fixed across runs: the users of every persona spread evenly over the index.
    static func of(user index: Int) -> Persona {
        shares.choose(roll: index % shares.totalWeight)
    }
}
