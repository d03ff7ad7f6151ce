import ArgumentParser
import Foundation
import KindredAuth
import KindredPostgres
import LoadTestKit
import Logging

/// `kindred-loadtest seed`: adults with verified email, a refresh token each (the run resumes their sessions,
/// as an app does) and friends in a ring, then their conversations and usage history, then baby profiles with
/// their owners, followers, calendar and registry, written in batches straight into identity's, social's,
/// family's and gamification's tables.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract:
            "Fills a running stack with users, friends, sessions, conversations and usage, resumably (SQL "
            + "through each service's role)."
    )

    @Option(help: "How many users the stack should hold.")
    var users = 10_000

    @Option(help: "Friends on each side of a user in a ring of all users (2 × this many friends each).")
    var friendsPerSide = 5

    @Option(help: "Where the seed's secret and progress are kept; `run` reads it.")
    var seedFile = "var/loadtest/seed.json"

    @Option(help: "Users written per transaction.")
    var batch = 2_000

    @Option(
        help: ArgumentHelp(
            "Baby profiles (default: one per 10 users). Those beyond users / 10 are background families.",
            valueName: "n"))
    var babyProfiles: Int?

    @Option(help: "Baby profiles written per transaction.")
    var profileBatch = 10_000

    @Option(
        help: ArgumentHelp(
            "identity=URL,social=URL,family=URL,gamification=URL: each service's database role (passwords "
                + "from PGPASSFILE).", valueName: "databases"))
    var databases = DatabaseURLs()

    func validate() throws {
        guard users >= 2 else { throw ValidationError("--users must be at least 2.") }
        guard friendsPerSide >= 1 else { throw ValidationError("--friends-per-side must be at least 1.") }
        guard batch >= 1, profileBatch >= 1 else {
            throw ValidationError("--batch and --profile-batch must be at least 1.")
        }
        guard (babyProfiles ?? 0) >= 0 else { throw ValidationError("--baby-profiles cannot be negative.") }
    }

    func run() async throws {
        do {
            try await seed()
        } catch let error as ToolError {
            say(error.description)
            throw ExitCode.failure
        }
    }

    private func seed() async throws {
        var file = try await existingOrNewSeed()
        var logger = Logger(label: "kindred-loadtest")
        // A failure is said once, by the tool, in one line; the pool's own lines would repeat it.
        logger.logLevel = .critical
        let identity = try PostgresPool(
            configuration: PostgresConfiguration(url: databases.identity, poolSize: 1), logger: logger)
        let social = try PostgresPool(
            configuration: PostgresConfiguration(url: databases.social, poolSize: 1), logger: logger)
        let family = try PostgresPool(
            configuration: PostgresConfiguration(url: databases.family, poolSize: 1), logger: logger)
        let gamification = try PostgresPool(
            configuration: PostgresConfiguration(url: databases.gamification, poolSize: 1), logger: logger)
        let writer = SeedWriter(identity: identity, social: social, family: family, seed: file)
        let clock = ContinuousClock()
        let started = clock.now
        if file.seeded > 0 { say("resuming: \(file.seeded) of \(file.users) users were already seeded") }
        while file.seeded < file.users {
            let range = file.seeded..<min(file.users, file.seeded + batch)
            do {
                try await writer.write(range)
            } catch {
                throw ToolError(
                    "Seeding users \(range.lowerBound)-\(range.upperBound - 1) failed (\(oneLine(error))); "
                        + "\(file.seeded) of \(file.users) are seeded: check the stack is up and migrated "
                        + "(deploy/local/up), PGPASSFILE and --databases, then run the same command to resume."
                )
            }
            file.seeded = range.upperBound
            try file.save(seedFile)
            say(
                "seeded \(file.seeded)/\(file.users) users (accounts, sessions, friends), \(clock.now - started)"
            )
        }
        try await analyzeUsers(identity: identity, social: social, family: family)
        try await seedHistory(
            &file, writer: HistorySeedWriter(social: social, gamification: gamification, seed: file))
        try await seedProfiles(&file, writer: FamilySeedWriter(family: family, families: file.families))
        await identity.close()
        await social.close()
        await family.close()
        await gamification.close()
        say(
            "the stack holds \(file.users) seeded users and \(file.babyProfiles) baby profiles; password of every "
                + "user: \(file.password); seed file \(seedFile). The seed wrote its rows plain: run "
                + "deploy/ops/rotate-data to seal them, as production keeps them.")
    }

    private func seedProfiles(_ file: inout SeedFile, writer: FamilySeedWriter) async throws {
        let clock = ContinuousClock()
        let (started, resumedAt) = (clock.now, file.seededProfiles)
        guard file.seededProfiles < file.babyProfiles else { return }
        while file.seededProfiles < file.babyProfiles {
            let range = file.seededProfiles..<min(file.babyProfiles, file.seededProfiles + profileBatch)
            do {
                try await writer.write(range)
            } catch {
                throw ToolError(
                    "Seeding baby profiles \(range.lowerBound)-\(range.upperBound - 1) failed (\(oneLine(error))); "
                        + "\(file.seededProfiles) of \(file.babyProfiles) are seeded: check family is migrated and "
                        + "--databases, then run the same command to resume.")
            }
            file.seededProfiles = range.upperBound
            try file.save(seedFile)
            let seconds = (clock.now - started).inSeconds
            say(
                "seeded \(file.seededProfiles)/\(file.babyProfiles) baby profiles (members, calendar, registry), "
                    + String(
                        format: "%.1f s, %.0f profiles/s", seconds,
                        Double(file.seededProfiles - resumedAt) / seconds))
        }
        // Statistics for the planner now, as autovacuum would only later: a million rows written in minutes.
        _ = try await writer.family.query(
            "ANALYZE family.baby_profiles, family.baby_members, family.calendar_events, family.registry_items"
        )
    }

    /// Statistics for the planner on every table the users' batches wrote, as autovacuum would only later:
    /// without them the first minutes of a run plan the feed and friend reads for empty tables (seconds a call).
    private func analyzeUsers(identity: PostgresPool, social: PostgresPool, family: PostgresPool) async throws
    {
        _ = try await identity.query(
            "ANALYZE identity.accounts, identity.refresh_chains, identity.refresh_tokens")
        _ = try await social.query(
            "ANALYZE social.people, social.friendships, social.follows, social.blocks, social.events")
        _ = try await family.query("ANALYZE family.parental_controls, family.guardian_links")
    }

    /// The seed file's seed when it asks for as many users (a resume), otherwise a new seed with one
    /// Argon2id hash for every account's password.
    private func existingOrNewSeed() async throws -> SeedFile {
        if FileManager.default.fileExists(atPath: seedFile) {
            let file = try SeedFile.load(seedFile)
            guard file.users == users else {
                throw ToolError(
                    "\(seedFile) is a seed of \(file.users) users (\(file.seeded) done), not \(users): pass "
                        + "--users \(file.users) to resume it, or another --seed-file for a new seed.")
            }
            // More profiles than before grow the seed (its live families stay as they are); fewer cannot be.
            var grown = file
            grown.babyProfiles = max(file.babyProfiles, babyProfiles ?? file.babyProfiles)
            return grown
        }
        let secret = OpaqueToken(text: UUID().uuidString).storageHash.map { String(format: "%02x", $0) }
            .joined()
        let password = "loadtest-\(secret.suffix(12))"
        let hasher = PasswordHasher(cost: .standard, concurrency: 1)
        let file = SeedFile(
            secret: secret, users: users, friendsPerSide: friendsPerSide, password: password,
            passwordHash: try await hasher.hash(password), seeded: 0,
            babyProfiles: babyProfiles ?? users / BabyFamilies.groupSize, seededProfiles: 0, seededHistory: 0)
        try file.save(seedFile)
        return file
    }
}

/// Each seeded service's database role, `identity=URL,social=URL,family=URL,gamification=URL`; the local
/// stack's by default.
struct DatabaseURLs: ExpressibleByArgument, Sendable {
    var identity = "postgresql://kindred_identity@127.0.0.1:55400/kindred"
    var social = "postgresql://kindred_social@127.0.0.1:55400/kindred"
    var family = "postgresql://kindred_family@127.0.0.1:55400/kindred"
    var gamification = "postgresql://kindred_gamification@127.0.0.1:55400/kindred"

    init() {}

    init?(argument: String) {
        for pair in argument.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "identity": identity = parts[1]
            case "social": social = parts[1]
            case "family": family = parts[1]
            case "gamification": gamification = parts[1]
            default: return nil
            }
        }
    }

    static var defaultValueDescription: String { "the local stack's roles on 127.0.0.1:55400" }
}

/// An error's description on one line (libpq's messages span several).
func oneLine(_ error: any Error) -> String {
    "\(error)".split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
        separator: " ")
}
