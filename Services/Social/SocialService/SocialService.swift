import FoundationEssentials
import KindredAuth
import KindredHandlers
public import KindredRuntime

/// `kindred-social`: what it serves, owns and needs to start.
public enum SocialService {
    /// The service as the shared runtime starts it: schema `social`, port 50053 by default.
    public static let definition: ServiceDefinition = {
        var definition = ServiceDefinition(
            name: "social",
            defaultPort: 50053,
            migrations: SocialMigrations.all,
            makeServices: { environment in
                let credentials = try environment.requireCredentials()
                let bodies = MessageBodies(
                    cipher: try FieldCipher.configured(for: "social", in: ProcessInfo.processInfo.environment)
                )
                let context = SocialContext(
                    database: environment.database, clock: .system,
                    people: try PeopleDirectory(
                        identityTarget: environment.peers.identity, credentials: credentials,
                        database: environment.database, clock: .system),
                    family: try FamilyGate(familyTarget: environment.peers.family, credentials: credentials),
                    messageBodies: bodies, logger: environment.logger)
                let api = try SocialAPI(context: context)
                environment.background.onDrain { await api.closeStreams() }
                let accountEvents = AccountEvents.consumer(context: context)
                environment.background.start("identity events") { await accountEvents.run() }
                return [api]
            }
        )
        definition.commands = SocialCommands.all
        return definition
    }()
}
