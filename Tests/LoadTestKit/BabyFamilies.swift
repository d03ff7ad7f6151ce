/// Which seeded users own and follow which baby profiles, derived from the seed's tag like the users
/// themselves (`SeededUsers`), so `seed` writes it and `run` knows it without a list of a million rows.
///
/// Users come in groups of ten: user `10c` owns profile `c`, users `10c+1…10c+3` are grandparents who each
/// follow their own group's profile and the next group's (so a profile has six followers, from two families).
/// Profiles beyond the groups the seeded users make (`--baby-profiles` over users / 10) are background
/// families: an owner and three followers each, ids of their own with no account, there for the tables' size.
public struct BabyFamilies: Sendable, Equatable {
    public static let groupSize = 10
    public static let grandparentsPerGroup = 3
    public static let backgroundFollowers = 3
    public static let eventsPerProfile = 2
    public static let itemsPerProfile = 4

    public let tag: String
    public let users: Int
    public let profiles: Int

    public init(tag: String, users: Int, profiles: Int) {
        self.tag = tag
        self.users = users
        self.profiles = profiles
    }

    /// Profiles owned and followed by seeded users; the rest are background families.
    public var liveProfiles: Int { min(profiles, users / Self.groupSize) }

    public func ownedProfile(of user: Int) -> Int? {
        let group = user / Self.groupSize
        return user % Self.groupSize == 0 && group < liveProfiles ? group : nil
    }

    /// The profiles a grandparent follows: their group's and the next one's; none for anyone else.
    public func followedProfiles(of user: Int) -> [Int] {
        let group = user / Self.groupSize
        let slot = user % Self.groupSize
        guard (1...Self.grandparentsPerGroup).contains(slot), group < liveProfiles else { return [] }
        let next = (group + 1) % liveProfiles
        return next == group ? [group] : [group, next]
    }

    /// A live profile's owner first, then its followers.
    public func members(of profile: Int) -> [Int] {
        let previous = (profile - 1 + liveProfiles) % liveProfiles
        let groups = previous == profile ? [profile] : [profile, previous]
        let followers = groups.flatMap { group in
            (1...Self.grandparentsPerGroup).map { group * Self.groupSize + $0 }
        }
        return [profile * Self.groupSize] + followers
    }

    public func profileID(_ profile: Int) -> String { id(space: 6, profile) }

    public func eventID(_ profile: Int, _ event: Int) -> String {
        id(space: 7, profile * Self.eventsPerProfile + event)
    }

    public func itemID(_ profile: Int, _ item: Int) -> String {
        id(space: 8, profile * Self.itemsPerProfile + item)
    }

    /// `<tag>-<space as 4 hex>-4000-8000-<n as 12 hex>`: the seed's SQL writes the same (`SeededUsers.userID`
    /// is space 0).
    func id(space: Int, _ n: Int) -> String {
        "\(tag)-\(Self.hex(space, digits: 4))-4000-8000-\(Self.hex(n, digits: 12))"
    }

    public static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
