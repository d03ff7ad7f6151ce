import FoundationEssentials
import KindredAPI
import KindredAuth
import KindredRPC
public import KindredRuntime

/// `kindred-gamification`: what it serves, owns and needs to start.
public enum GamificationService {
    /// The service as the shared runtime starts it: schema `gamification`, port 50054 by default.
    public static let definition: ServiceDefinition = {
        var definition = ServiceDefinition(
            name: "gamification",
            defaultPort: 50054,
            migrations: GamificationMigrations.all,
            makeServices: { environment in
                let credentials = try environment.requireCredentials()
                let sessions = UsageSessions(
                    cipher: try FieldCipher.configured(
                        for: "gamification", in: ProcessInfo.processInfo.environment))
                let context = GamificationContext(
                    database: environment.database, clock: .system,
                    friends: try SocialFriendGraph(
                        socialTarget: environment.peers.social, credentials: credentials),
                    babyMembers: try FamilyBabyMemberships(
                        familyTarget: environment.peers.family, credentials: credentials),
                    guardians: try FamilyGuardians(familyTarget: environment.peers.family),
                    usageSessions: sessions, logger: environment.logger)
                let api = try GamificationAPI(context: context)
                environment.background.onDrain { await api.closeStreams() }
                let challenges = api.challenges
                environment.background.start("challenge sweep") { await challenges.runSweeps() }
                let accountEvents = AccountEvents.consumer(
                    identity: Kindred_Identity_V1_IdentityService.Client(
                        try RPCClient(target: environment.peers.identity)),
                    credentials: credentials, context: context)
                environment.background.start("identity events") { await accountEvents.run() }
                let familyEvents = FamilyEventsConsumer.consumer(
                    family: Kindred_Family_V1_FamilyService.Client(
                        try RPCClient(target: environment.peers.family)),
                    credentials: credentials, context: context)
                environment.background.start("family events") { await familyEvents.run() }
                let usageRetention = UsageRetention(context: context).job
                environment.background.start("usage retention") { await usageRetention.run() }
                return [api]
            }
        )
        definition.commands = GamificationCommands.all
        return definition
    }()
}
