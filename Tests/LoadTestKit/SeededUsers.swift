import KindredAuth

/// The users a seed made, derived from the seed's secret: user `n`'s id, username and first refresh token are
/// computed the same way here and in the seed's SQL (`SeedWriter`), so a seed file holds a secret and a count,
/// not a million tokens.
public struct SeededUsers: Sendable {
    public let secret: String
    /// Eight hex digits from the secret that start every seeded id, so two seeds never share an id.
    public let tag: String
    public let count: Int

    public init(secret: String, count: Int) {
        self.secret = secret
        self.tag = String(secret.prefix(8))
        self.count = count
    }

    public func userID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "\(tag)-0000-4000-8000-\(String(repeating: "0", count: 12 - hex.count))\(hex)"
    }

    /// The refresh token the seed stored (as its SHA-256) for user `index`: hex of SHA-256("secret:index").
    public func firstRefreshToken(_ index: Int) -> String {
        OpaqueToken(text: "\(secret):\(index)").storageHash.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Whether user `index` is a restricted teenager (16–17, parental controls on: messaging only with people
    /// they follow, joins needing approval): the ninth of each ten users. The seed's SQL says the same
    /// (`n % 10 = 8`).
    public static func isMinor(_ index: Int) -> Bool { index % 10 == 8 }

    /// A minor's guardian: the user just before them.
    public static func guardian(of minor: Int) -> Int { minor - 1 }

    /// Someone user `index` neither follows nor is friends with: the user half the ring away.
    public func stranger(of index: Int) -> Int { (index + count / 2) % count }

    /// The event user `organizer` organizes (the seed writes one per user: `SeedWriter+Social`).
    public func eventID(organizer: Int) -> String {
        let hex = String(organizer, radix: 16)
        return "\(tag)-000c-4000-8000-\(String(repeating: "0", count: 12 - hex.count))\(hex)"
    }

    /// One of three organizers of public events (the sixth of each ten users) far from user `index` in the ring,
    /// so neither friend nor followed: a teenager's join of their event needs a guardian's approval. Nil when
    /// the seed has fewer than ten users.
    public func publicOrganizer(farFrom index: Int, pick: Int) -> Int? {
        let groups = count / 10
        guard groups > 0 else { return nil }
        return ((stranger(of: index) / 10 + pick % 3) % groups) * 10 + 5
    }

    /// User `index`'s friends: the `perSide` users on each side of it in a ring of all seeded users.
    public func friends(of index: Int, perSide: Int) -> [Int] {
        guard count > 1 else { return [] }
        let reach = min(perSide, (count - 1) / 2)
        return (1...max(reach, 1)).flatMap { distance in
            [(index + distance) % count, (index - distance + count) % count]
        }.reduce(into: [Int]()) { unique, friend in
            if friend != index && !unique.contains(friend) { unique.append(friend) }
        }
    }
}
