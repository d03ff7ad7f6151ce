import KindredMetrics
import KindredPostgres
import KindredRPC
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The shared `main` of every Kindred executable: `kindred-<name> [serve|migrate] [options]`.
public enum ServiceMain {
    /// Parses the command line, runs the command and exits: 0 after a clean run or drain, 1 with
    /// one line on standard error when the service cannot start, 64 for a bad command line.
    public static func run(_ service: ServiceDefinition) async -> Never {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("-h") || arguments.contains("--help") {
            // ArgumentParser names a bare ParsableArguments type "service"; say the executable and its commands.
            print(
                ServiceOptions.helpMessage().replacing(
                    "USAGE: service", with: "USAGE: \(service.executableName) [serve|migrate]"))
            print(service.commandsHelp, terminator: "")
            exit(0)
        }
        if let (command, rest) = service.command(matching: arguments) {
            await run(command, arguments: rest, of: service)
        }
        let command = arguments.first.flatMap(Command.init(rawValue:)) ?? .serve
        if arguments.first == command.rawValue { arguments.removeFirst() }

        let options = parseOptions(arguments, of: service)
        do {
            let (settings, logger) = try start(options, of: service)
            switch command {
            case .serve: try await ServiceRunner(service: service, settings: settings, logger: logger).serve()
            case .migrate:
                try await ServiceRunner(service: service, settings: settings, logger: logger).migrateOnly()
            }
            terminate(0)
        } catch {
            fail("\(error)", service: service, status: 1)
        }
    }

    /// The command line's options, or a one-line complaint and exit status 64.
    static func parseOptions(_ arguments: [String], of service: ServiceDefinition) -> ServiceOptions {
        do {
            return try ServiceOptions.parse(arguments)
        } catch {
            fail("\(ServiceOptions.message(for: error)) (see --help)", service: service, status: 64)
        }
    }

    /// Reads the settings from `options` and the environment, and starts JSON logging at their level.
    static func start(_ options: ServiceOptions, of service: ServiceDefinition) throws -> (
        ServiceSettings, Logger
    ) {
        let settings = try ServiceSettings(
            options: options, service: service, environment: Environment.variables())
        // Before any client exists: the service's clients, its token and its signing keys all call peers.
        try settings.tls.useForEveryClient()
        ClientThrottle.Settings.useForEveryClient(settings.peerThrottle)
        let writer = try settings.logs.writer()
        LoggingSystem.bootstrap {
            JSONLogHandler(
                label: $0, level: settings.logLevel, metadataProvider: TraceContext.logMetadata,
                writer: writer)
        }
        var logger = Logger(label: service.executableName)
        logger[metadataKey: "service"] = "\(service.name)"
        return (settings, logger)
    }

    /// Prints `kindred-<name>: <reason>` as one line on standard error and exits with `status`.
    static func fail(_ reason: String, service: ServiceDefinition, status: Int32) -> Never {
        let oneLine = reason.split(whereSeparator: \.isNewline).map {
            $0.trimmingPrefix(while: \.isWhitespace)
        }
        var line = "\(service.executableName): \(oneLine.joined(separator: " "))\n"
        _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
        terminate(status)
    }

    /// Ends the process with `status` once the log's lines and buffered output are written, without the
    /// atexit handlers: OpenSSL's cleanup is one, and it frees the library's state under the threads that
    /// still run (the loops, the TLS clients'). A service with TLS clients that could not bind its port died
    /// of SIGSEGV in libcrypto that way instead of exiting 1 (CI's TLS interop run, once, under load).
    static func terminate(_ status: Int32) -> Never {
        LogLineWriter.flushAll()
        fflush(nil)  // every output stream: standard output is one
        _exit(status)
    }

    enum Command: String {
        case serve
        case migrate
    }
}

/// The process environment, read without Foundation.
enum Environment {
    static func variables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
