import KindredAPI
import KindredMessages
import KindredPostgres
import KindredRPC

/// The benchmark's PostgreSQL point lookup: one indexed SELECT on pgbench's table per call, so the
/// runtime plus the pool can be measured against `pgbench -S -M prepared` at the same concurrency.
struct BenchService: Kindred_Bench_V1_BenchService.Service {
    let database: PostgresPool
    let publicMethods = MethodSet.all

    func getAccount(
        _ request: Kindred_Bench_V1_GetAccountRequest, context: ServerContext
    ) async throws -> Kindred_Bench_V1_GetAccountResponse {
        let rows = try await database.pureRead(
            "SELECT abalance FROM pgbench_accounts WHERE aid = \(request.aid)")
        guard let row = rows.first else { throw RPCError(.notFound, "no account \(request.aid)") }
        return Kindred_Bench_V1_GetAccountResponse(balance: try row.decode(Int32.self, column: 0))
    }
}
