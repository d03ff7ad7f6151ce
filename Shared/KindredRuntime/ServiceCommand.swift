#if canImport(Glibc)
import Glibc
#endif

/// A command one service adds beside `serve` and `migrate`, such as `kindred-identity keys rotate`.
public struct ServiceCommand: Sendable {
    /// What the command needs before it runs.
    public enum Action: Sendable {
        /// Nothing: it runs at once (reading standard input, say).
        case offline(@Sendable () async throws -> Void)
        /// The service's database, connected with the usual flags and environment (not migrated).
        case withDatabase(@Sendable (ServiceEnvironment) async throws -> Void)
    }

    /// The words that name it on the command line, e.g. `["keys", "rotate"]`.
    public var words: [String]
    /// One line for `--help`.
    public var summary: String
    public var action: Action

    /// A command run as `kindred-<name> <words...> [options]`.
    public init(words: [String], summary: String, action: Action) {
        self.words = words
        self.summary = summary
        self.action = action
    }
}

extension ServiceDefinition {
    /// The command `arguments` start with, and the arguments after its words.
    func command(matching arguments: [String]) -> (ServiceCommand, [String])? {
        commands.first { arguments.starts(with: $0.words) }.map {
            ($0, Array(arguments.dropFirst($0.words.count)))
        }
    }

    /// The lines `--help` adds for the service's own commands.
    var commandsHelp: String {
        guard !commands.isEmpty else { return "" }
        let width = commands.map { $0.words.joined(separator: " ").count }.max()!
        let lines = commands.map { command in
            let name = command.words.joined(separator: " ")
            return "  \(name)\(String(repeating: " ", count: width - name.count))  \(command.summary)"
        }
        return "\nCOMMANDS:\n" + lines.joined(separator: "\n") + "\n"
    }
}

extension ServiceMain {
    /// Runs one of the service's own commands and exits: 0 when it succeeds, 1 with one line on standard
    /// error when it fails, 64 for a bad command line.
    static func run(_ command: ServiceCommand, arguments: [String], of service: ServiceDefinition) async
        -> Never
    {
        let options = parseOptions(arguments, of: service)
        do {
            switch command.action {
            case .offline(let body):
                try await body()
            case .withDatabase(let body):
                let (settings, logger) = try start(options, of: service)
                try await ServiceRunner(service: service, settings: settings, logger: logger).run(body)
            }
            exit(0)
        } catch {
            fail("\(error)", service: service, status: 1)
        }
    }
}

extension ServiceRunner {
    /// Runs a command's body with the service's database; whatever it started in the background stops
    /// before the pool closes, as after `serve`.
    func run(_ body: @Sendable (ServiceEnvironment) async throws -> Void) async throws {
        try await withDatabase { database in
            let background = BackgroundWork(logger: logger)
            let environment = try ServiceEnvironment(
                database: database, logger: logger, settings: settings, background: background)
            do {
                try await body(environment)
            } catch {
                await background.stopAndWait()
                throw error
            }
            await background.stopAndWait()
        }
    }
}
