internal import CLibPQ
internal import Glibc

/// Owns one `PGconn` (finished exactly once, in deinit). Used by one thread at a time: a connection thread,
/// blocking (never Swift's cooperative pool), or an event loop, non-blocking.
final class PostgresConnection {
    let pointer: OpaquePointer
    /// Prepared statements on this connection, by cache key.
    var statements: [StatementKey: PreparedStatement] = [:]
    var statementNames: Set<String> = []
    /// Set when the pipeline's answers no longer line up with what was sent: the connection must be dropped.
    var isOutOfStep = false

    struct StatementKey: Hashable {
        var sql: String
        var types: [UInt32]
    }

    /// Connects (blocking, bounded by the configured connect timeout) and enters pipeline mode; with
    /// `nonBlocking`, later sends and flushes never block (for connections an event loop drives).
    init(configuration: PostgresConfiguration, nonBlocking: Bool = false) throws(PostgresError) {
        let parameters = configuration.connectionParameters
        let keywords = parameters.map { strdup($0.keyword) }
        let values = parameters.map { strdup($0.value) }
        defer { (keywords + values).forEach { free($0) } }
        let connection = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 0)
            }
        }
        guard let connection else { throw .unavailable("libpq could not allocate a connection") }
        pointer = connection
        // Server notices ("already exists, skipping") are informational; libpq's default processor prints
        // them to stderr, which would break the one-JSON-object-per-line log.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        guard PQstatus(connection) == CONNECTION_OK else { throw .unavailable(errorMessage) }
        guard PQenterPipelineMode(connection) == 1 else { throw .unavailable(errorMessage) }
        if nonBlocking, PQsetnonblocking(connection, 1) != 0 { throw .unavailable(errorMessage) }
    }

    deinit { PQfinish(pointer) }

    var isBroken: Bool { isOutOfStep || PQstatus(pointer) != CONNECTION_OK }

    var socket: Int32 { PQsocket(pointer) }

    var errorMessage: String {
        var text = String(cString: PQerrorMessage(pointer))
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }

    /// Reads whatever the server sent while idle (notices, a shutdown notice, EOF); false if the connection broke.
    func consumeInput() -> Bool {
        if PQconsumeInput(pointer) == 0 { return false }
        while let notify = PQnotifies(pointer) { PQfreemem(notify) }
        return !isBroken
    }

    /// Reads what the server sent and returns the notifications in it; nil if the connection broke.
    func receiveNotifications() -> [(channel: String, payload: String)]? {
        if PQconsumeInput(pointer) == 0 { return nil }
        var received: [(channel: String, payload: String)] = []
        while let notify = PQnotifies(pointer) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return isBroken ? nil : received
    }

    /// Runs a multi-statement script with the simple query protocol, which pipeline mode does not allow.
    func runScript(_ sql: String) throws(PostgresError) {
        guard PQexitPipelineMode(pointer) == 1 else { throw .connectionLost(errorMessage) }
        defer { PQenterPipelineMode(pointer) }
        var failure: PostgresError?
        guard PQsendQuery(pointer, sql) == 1 else { throw .connectionLost(errorMessage) }
        while let result = PQgetResult(pointer) {
            if failure == nil { failure = error(in: result) }
            PQclear(result)
        }
        if isBroken { throw .connectionLost(errorMessage) }
        if let failure { throw failure }
    }

    /// The error a result carries, or nil if it succeeded.
    func error(in result: OpaquePointer) -> PostgresError? {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_SYNC:
            return nil
        default:
            if isBroken { return .connectionLost(errorMessage) }
            let sqlState = field(result, "C")
            var detail = field(result, "M") ?? String(cString: PQresultErrorMessage(result))
            for (code, label): (Unicode.Scalar, String) in [
                ("D", "detail"), ("H", "hint"), ("n", "constraint"), ("P", "position"),
            ] {
                if let value = field(result, code) { detail += "; \(label): \(value)" }
            }
            return .server(sqlState: sqlState, detail: detail)
        }
    }

    private func field(_ result: OpaquePointer, _ code: Unicode.Scalar) -> String? {
        PQresultErrorField(result, Int32(code.value)).map { String(cString: $0) }
    }
}
