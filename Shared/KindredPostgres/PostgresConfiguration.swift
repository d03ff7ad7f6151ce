internal import CLibPQ

/// Where and how the pool connects: a libpq URL plus pool size and timeouts.
public struct PostgresConfiguration: Sendable {
    /// Connections (and connection threads) the pool keeps.
    public var poolSize: Int
    /// Connections each event loop keeps for explicit transactions (one transaction each at a time); more
    /// transactions at once on a loop wait there for one.
    public var loopTransactionConnections: Int
    /// How long one connection attempt may take before it counts as a failure.
    public var connectTimeout: Duration
    /// Server-side limit for every statement (`statement_timeout`); nil keeps the server's setting.
    public var statementTimeout: Duration?
    /// How many connections `poolSize` and `loopTransactionConnections` may each be.
    public static let connectionCounts = 1...256
    /// The libpq parameters parsed from the URL, in libpq's keyword form.
    let parameters: [Parameter]

    struct Parameter: Sendable, Hashable {
        var keyword: String
        var value: String
    }

    /// Parses and validates `url` (`postgresql://user@host:port/db?sslmode=…`, or a libpq `key=value` string).
    public init(
        url: String, poolSize: Int = 4, loopTransactionConnections: Int = 4,
        connectTimeout: Duration = .seconds(5), statementTimeout: Duration? = .seconds(30)
    ) throws(PostgresConfigurationError) {
        let counts = Self.connectionCounts
        guard counts.contains(poolSize) else {
            throw PostgresConfigurationError(
                "pool size must be between \(counts.lowerBound) and \(counts.upperBound), got \(poolSize)")
        }
        guard counts.contains(loopTransactionConnections) else {
            throw PostgresConfigurationError(
                "transaction connections per loop must be between \(counts.lowerBound) and \(counts.upperBound), got \(loopTransactionConnections)"
            )
        }
        guard connectTimeout >= .seconds(1) else {
            throw PostgresConfigurationError("connect timeout must be at least 1 second")
        }
        if let statementTimeout, statementTimeout <= .zero {
            throw PostgresConfigurationError("statement timeout must be positive")
        }
        self.poolSize = poolSize
        self.loopTransactionConnections = loopTransactionConnections
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.parameters = try Self.parse(url)
    }

    /// The most connections a pool of this configuration opens when its statements come from `eventLoops`
    /// event loops: its connection threads' connections; on each loop two for single statements (the second for
    /// reads sent while a write waits on the first) and its transaction connections, opened as work needs them;
    /// and the one LISTEN connection a process keeps per database and role (`PostgresListenerHub`).
    public func mostConnections(eventLoops: Int) -> Int {
        poolSize + eventLoops * (2 + loopTransactionConnections) + 1
    }

    private static func parse(_ url: String) throws(PostgresConfigurationError) -> [Parameter] {
        let trimmed = url.trimmingWhitespace
        guard !trimmed.isEmpty else { throw PostgresConfigurationError("the database URL is empty") }
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(trimmed, &message) else {
            let reason = message.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(message)
            throw PostgresConfigurationError(
                "invalid database URL: \(reason.trimmingSuffixWhitespace)")
        }
        defer { PQconninfoFree(options) }
        var parameters: [Parameter] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                parameters.append(Parameter(keyword: String(cString: keyword), value: String(cString: value)))
            }
            option += 1
        }
        return parameters
    }

    /// The URL's parameters with the pool's own settings merged in, as libpq connects with them.
    var connectionParameters: [Parameter] {
        var result = parameters.filter { $0.keyword != "connect_timeout" }
        let seconds = max(1, Int(connectTimeout.components.seconds))
        result.append(Parameter(keyword: "connect_timeout", value: String(seconds)))
        if !parameters.contains(where: { $0.keyword == "application_name" }) {
            result.append(Parameter(keyword: "fallback_application_name", value: "kindred"))
        }
        // One plan per prepared statement, made once per connection: with the default, statements taking
        // `= ANY($1::uuid[])` or `($1 IS NULL OR …)` were planned afresh on every call (the arrival read spent
        // 1.1 ms planning for 0.15 ms executing). At 1,000 calls/s of the standard mix this took PostgreSQL from
        // 811 to 745 µs of CPU a call, its statements' summed execution time down too (Tests/LoadTest/README.md).
        var settings = ["-c plan_cache_mode=force_generic_plan"]
        if let statementTimeout {
            let milliseconds =
                statementTimeout.components.seconds * 1000
                + statementTimeout.components.attoseconds / 1_000_000_000_000_000
            settings.append("-c statement_timeout=\(max(1, milliseconds))")
        }
        let setting = settings.joined(separator: " ")
        if let index = result.firstIndex(where: { $0.keyword == "options" }) {
            result[index].value += " " + setting
        } else {
            result.append(Parameter(keyword: "options", value: setting))
        }
        return result
    }

    /// Host, port, database and user — never the password: safe to log.
    public var redactedDescription: String {
        func value(_ keyword: String) -> String? { parameters.first { $0.keyword == keyword }?.value }
        let host = value("host") ?? value("hostaddr") ?? "localhost"
        let port = value("port") ?? "5432"
        return "postgresql://\(value("user") ?? "")@\(host):\(port)/\(value("dbname") ?? "")"
    }
}

/// The database URL or pool settings are invalid; the message says which part and why.
public struct PostgresConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in one line.
    public let description: String

    init(_ description: String) { self.description = description }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: { $0.isWhitespace })).trimmingSuffixWhitespace
    }

    fileprivate var trimmingSuffixWhitespace: String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
