import KindredHandlers
import KindredMessages

/// The fan-out's bookkeeping: which local stream watches which profiles for which user, indexed by profile
/// so that an entry finds its streams without looking at the others.
struct FanoutState {
    struct Watcher {
        let user: UserID
        var profiles: Set<BabyProfileID>
        let continuation: AsyncThrowingStream<ActivityFanout.Delivery, any Error>.Continuation
    }

    /// The cursor of the last entry handed out; nil until the reader starts.
    var position: Int64?
    var watchers: [UInt64: Watcher] = [:]
    var byProfile: [BabyProfileID: Set<UInt64>] = [:]
    /// The streams watching every profile of their user, by user: they take on a profile their user joins.
    var allOfUser: [UserID: Set<UInt64>] = [:]
    var nextID: UInt64 = 0
    var membershipReads = 0
    var isClosed = false

    /// The streams watching `profile`, with their users.
    func users(watching profile: BabyProfileID) -> [UInt64: UserID] {
        var users: [UInt64: UserID] = [:]
        for id in byProfile[profile] ?? [] { users[id] = watchers[id]?.user }
        return users
    }

    /// Registers a stream of `user` on `profiles` (on every profile of theirs, those they join later too,
    /// when `allOfUser`); nil once closed.
    mutating func add(
        user: UserID, profiles: Set<BabyProfileID>, allOfUser: Bool,
        continuation: AsyncThrowingStream<ActivityFanout.Delivery, any Error>.Continuation
    ) -> UInt64? {
        guard !isClosed else { return nil }
        nextID += 1
        watchers[nextID] = Watcher(user: user, profiles: profiles, continuation: continuation)
        for profile in profiles { byProfile[profile, default: []].insert(nextID) }
        if allOfUser { self.allOfUser[user, default: []].insert(nextID) }
        return nextID
    }

    /// Forgets stream `id`.
    mutating func remove(_ id: UInt64) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        for profile in watcher.profiles { stopWatching(profile, id) }
        allOfUser[watcher.user]?.remove(id)
        if allOfUser[watcher.user]?.isEmpty == true { allOfUser.removeValue(forKey: watcher.user) }
    }

    /// Adds `profile` to the "all my profiles" streams of `joiner`, who just became its member.
    mutating func join(_ joiner: UserID, to profile: BabyProfileID) {
        for id in allOfUser[joiner] ?? [] where watchers[id]?.profiles.contains(profile) == false {
            watchers[id]?.profiles.insert(profile)
            byProfile[profile, default: []].insert(id)
        }
    }

    /// Hands `delivery` to `profile`'s streams: those in `checked` only if their user is among `members` (a
    /// removed member's stream stops watching the profile, and ends NOT_FOUND when it watched nothing else);
    /// a stream registered after the check gets it, since it checked membership itself as it opened.
    mutating func deliver(
        _ delivery: ActivityFanout.Delivery, to profile: BabyProfileID, checked: [UInt64: UserID],
        members: Set<UserID>
    ) {
        position = delivery.cursor
        if delivery.activity.kind == .memberJoined, let joiner = UserID(delivery.activity.subjectID) {
            join(joiner, to: profile)
        }
        for id in byProfile[profile] ?? [] {
            guard var watcher = watchers[id] else { continue }
            if let user = checked[id], !members.contains(user) {
                watcher.profiles.remove(profile)
                stopWatching(profile, id)
                if watcher.profiles.isEmpty && allOfUser[watcher.user]?.contains(id) != true {
                    watchers.removeValue(forKey: id)
                    watcher.continuation.finish(throwing: FamilyError.babyProfileNotFound)
                } else {
                    watchers[id] = watcher
                }
                continue
            }
            if case .dropped = watcher.continuation.yield(delivery) {
                remove(id)
                watcher.continuation.finish(throwing: FamilyError.activityStreamBehind)
            }
        }
    }

    /// Ends every stream (the process drains, or the reader stopped); later registrations are refused.
    mutating func closeAll() {
        isClosed = true
        for watcher in watchers.values { watcher.continuation.finish() }
        watchers.removeAll()
        byProfile.removeAll()
    }

    private mutating func stopWatching(_ profile: BabyProfileID, _ id: UInt64) {
        byProfile[profile]?.remove(id)
        if byProfile[profile]?.isEmpty == true { byProfile.removeValue(forKey: profile) }
    }
}
