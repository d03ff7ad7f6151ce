public import ArgumentParser
public import KindredRPC

/// Where the log goes and what the access log writes; each flag falls back to an environment variable.
/// Standard error by default, which systemd's journal and Kubernetes collect and bound themselves; a file
/// that the process rotates by size with `--log-file` (what `deploy/local` uses).
public struct LogOptions: ParsableArguments {
    @Option(
        help: "Write the log to this file, rotated by size, instead of standard error (env KINDRED_LOG_FILE)."
    )
    public var logFile: String?

    @Option(help: "Rotate the log file at this many MiB (env KINDRED_LOG_FILE_MAX_MB; default 64).")
    public var logFileMaxMb: Int?

    @Option(help: "Rotated log files kept, FILE.1 the newest (env KINDRED_LOG_FILE_KEEP; default 4).")
    public var logFileKeep: Int?

    @Flag(
        help:
            "Write access lines for health checks and reflection too; they are always counted in the metrics (env KINDRED_LOG_PROBES=1)."
    )
    public var logProbes = false

    public init() {}
}

/// The log settings `LogOptions` and the environment make.
public struct LogSettings: Sendable {
    /// The log file and its rotation; nil: standard error.
    public var file: (path: String, maxBytes: Int, keep: Int)?
    /// Whether health checks and reflection leave access lines.
    public var logsProbes: Bool

    /// Combines the flags (first) with `KINDRED_LOG_*`; throws a one-line explanation of a bad value.
    public init(options: LogOptions, environment: [String: String]) throws(StartupError) {
        logsProbes = options.logProbes || environment["KINDRED_LOG_PROBES"] == "1"
        guard let path = options.logFile ?? environment["KINDRED_LOG_FILE"], !path.isEmpty else { return }
        let megabytes = try Self.count(
            options.logFileMaxMb, environment, "KINDRED_LOG_FILE_MAX_MB", minimum: 1)
        let keep = try Self.count(options.logFileKeep, environment, "KINDRED_LOG_FILE_KEEP", minimum: 0)
        file = (path, (megabytes ?? 64) << 20, keep ?? 4)
    }

    /// The writer the log handler writes through: the rotating file, or standard error.
    public func writer() throws(StartupError) -> LogLineWriter {
        guard let file else { return .standardError }
        do {
            return try LogLineWriter.rotatingFile(path: file.path, maxBytes: file.maxBytes, keep: file.keep)
        } catch {
            throw StartupError(error.description)
        }
    }

    /// The access log's settings for the server.
    public var accessLog: AccessLogSettings {
        var settings = AccessLogSettings()
        settings.logsProbes = logsProbes
        return settings
    }

    private static func count(_ flag: Int?, _ environment: [String: String], _ variable: String, minimum: Int)
        throws(StartupError) -> Int?
    {
        let text = environment[variable]
        guard let value = flag ?? text.map({ Int($0) ?? -1 }) else { return nil }
        guard value >= minimum else {
            throw StartupError("\(variable) (or its flag) must be a whole number of at least \(minimum)")
        }
        return value
    }
}
