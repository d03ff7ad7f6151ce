import LoadTestKit
import Foundation

/// What `seed` leaves for `run`: the secret the users derive from (`SeededUsers`), how many were asked for and
/// how many are in the stack so far (a seed resumes from there), their shared password and its one Argon2id
/// hash. Written after every batch, so an interrupted seed says how far it got.
struct SeedFile: Codable, Sendable {
    var secret: String
    var users: Int
    var friendsPerSide: Int
    /// Every seeded account's password: one Argon2id hash serves them all (hashing costs ~180 ms a user).
    var password: String
    var passwordHash: String
    var seeded: Int
    /// Baby profiles asked for (`BabyFamilies`), and how many are in the stack so far.
    var babyProfiles: Int
    var seededProfiles: Int
    /// Users whose conversations and usage history are in (`HistorySeedWriter`); nil in a seed file made
    /// before the seed wrote history, whose stack may hold a run's messages the seeded ones would collide with.
    var seededHistory: Int?

    enum CodingKeys: String, CodingKey {
        case secret, users, seeded, password
        case friendsPerSide = "friends_per_side"
        case passwordHash = "password_hash"
        case babyProfiles = "baby_profiles"
        case seededProfiles = "seeded_profiles"
        case seededHistory = "seeded_history"
    }

    var seededUsers: SeededUsers { SeededUsers(secret: secret, count: users) }

    var families: BabyFamilies { BabyFamilies(tag: seededUsers.tag, users: users, profiles: babyProfiles) }

    /// The username `seed` gave user `index` (its SQL writes the same: `SeedWriter`).
    func username(_ index: Int) -> String { "lt_\(seededUsers.tag)_\(index)" }

    static func load(_ path: String) throws -> SeedFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolError(
                "No seed file at \(path): seed the stack first (kindred-loadtest seed --users N --seed-file \(path))."
            )
        }
        return try JSONDecoder().decode(SeedFile.self, from: data)
    }

    func save(_ path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// The refresh tokens a run left behind: identity rotates a refresh token when it is used, so the next run
/// must start from the rotated ones, as an app keeps its newest token. Lines of `index token`, beside the
/// seed file (`SEED_FILE.sessions`); a user missing from it starts from the token the seed stored.
struct SessionFile: Sendable {
    let path: String

    init(seedFile: String) {
        path = seedFile + ".sessions"
    }

    func load() -> [Int: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var tokens: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let index = Int(parts[0]) { tokens[index] = String(parts[1]) }
        }
        return tokens
    }

    func save(_ tokens: [Int: String]) throws {
        let text = tokens.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
