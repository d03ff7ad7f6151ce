import KindredPostgres
import KindredTestSupport
import Logging
import Testing

@testable import KindredRPC
@testable import KindredRuntime

/// A pool whose statements from RPC event loops use those loops' own connections, on the cluster of the
/// enclosing `.privateCluster` suite.
enum LoopPool {
    /// Runs `body` with the pool and two loops; the pool is closed afterwards.
    static func with(_ body: (PostgresPool, [EventLoop]) async throws -> Void) async throws {
        var logger = Logger(label: "postgres-on-loop-test")
        logger.logLevel = .warning
        let pool = PostgresPool(
            rpcLoopsConfiguration: try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: 1),
            logger: logger)
        let group = try EventLoopGroup(count: 2, name: "test-loop")
        do {
            try await body(pool, group.loops)
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
    }

    /// Runs `body` in a task that prefers `loop`.
    static func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        try await Task(executorPreference: loop) { try await body() }.value
    }

    static func backendPID(_ pool: PostgresPool) async throws -> Int32 {
        try await pool.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
    }

    /// The backend that answers a pure read from the calling loop (see `PostgresPool.LoopLane`).
    static func pureReadBackendPID(_ pool: PostgresPool) async throws -> Int32 {
        try await pool.pureRead("SELECT pg_backend_pid()")[0].decode(Int32.self)
    }

    /// The loop's connection comes up in the background after the first call; until then calls use the pool's.
    static func waitForOwnConnection(_ pool: PostgresPool, besides offLoop: Int32) async throws -> Int32 {
        var pid = offLoop
        try await eventually("the loop has a connection of its own") {
            pid = try await backendPID(pool)
            return pid != offLoop
        }
        return pid
    }

    /// One statement of a burst: declared a pure read (`pureRead(_:)`), or not (`query(_:)`).
    enum Statement: Sendable {
        case pureRead(PostgresQuery)
        case query(PostgresQuery)
    }

    /// Sends `statements` from `loop` in one loop iteration, in this order, once the loop's own connection is
    /// up, so they go out in one pipeline segment (if they may share one), and `later` 50 ms after them;
    /// returns each one's answer, `statements` then `later`.
    static func burst(
        _ pool: PostgresPool, on loop: EventLoop, _ statements: [Statement], later: [Statement] = []
    ) async throws -> [Result<PostgresRows, PostgresError>] {
        let offLoop = try await backendPID(pool)
        return try await onLoop(loop) {
            _ = try await waitForOwnConnection(pool, besides: offLoop)
            // Child tasks started here queue on this loop in order and all run in its next pass.
            return await withTaskGroup(of: (Int, Result<PostgresRows, PostgresError>).self) { group in
                for (index, statement) in (statements + later).enumerated() {
                    group.addTask(executorPreference: loop) {
                        if index >= statements.count { try? await Task.sleep(for: .milliseconds(50)) }
                        return (index, await answer(pool, statement))
                    }
                }
                var answers = [Result<PostgresRows, PostgresError>?](
                    repeating: nil, count: statements.count + later.count)
                for await (index, answer) in group { answers[index] = answer }
                return answers.map { $0! }
            }
        }
    }

    private static func answer(_ pool: PostgresPool, _ statement: Statement) async -> Result<
        PostgresRows, PostgresError
    > {
        do {
            switch statement {
            case .pureRead(let query): return .success(try await pool.pureRead(query))
            case .query(let query): return .success(try await pool.query(query))
            }
        } catch let error as PostgresError {
            return .failure(error)
        } catch {
            return .failure(PostgresError(kind: .server, message: "\(error)"))
        }
    }
}
