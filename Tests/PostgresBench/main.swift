// Point lookups on pgbench_accounts through PostgresPool, to compare with `pgbench -S -M prepared`.
// Usage: postgres-bench <database-url> [clients=32] [pool-size=4] [seconds=10]
// The database must have been initialised with `pgbench -i` (scale 10 or more: 1,000,000 accounts).
import KindredPostgres
import Logging
import Glibc

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: postgres-bench <database-url> [clients=32] [pool-size=4] [seconds=10]")
    exit(2)
}
let clients = arguments.count > 2 ? Int(arguments[2]) ?? 32 : 32
let poolSize = arguments.count > 3 ? Int(arguments[3]) ?? 4 : 4
let seconds = arguments.count > 4 ? Int(arguments[4]) ?? 10 : 10
let accounts = 1_000_000

let configuration = try PostgresConfiguration(url: arguments[1], poolSize: poolSize)
let pool = PostgresPool(configuration: configuration, logger: Logger(label: "postgres-bench"))
let deadline = ContinuousClock.now + .seconds(seconds)
let started = ContinuousClock.now

func lookups(pool: PostgresPool, clients: Int, until deadline: ContinuousClock.Instant) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<clients {
            group.addTask {
                var done = 0
                while ContinuousClock.now < deadline {
                    let id = Int32.random(in: 1...Int32(accounts))
                    let rows = try await pool.pureRead(
                        "SELECT abalance FROM pgbench_accounts WHERE aid = \(id)")
                    _ = try rows[0].decode(Int32.self, column: 0)
                    done += 1
                }
                return done
            }
        }
        var total = 0
        for try await done in group { total += done }
        return total
    }
}

let total = try await lookups(pool: pool, clients: clients, until: deadline)
let elapsed = ContinuousClock.now - started
let perSecond =
    Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
print("clients=\(clients) pool=\(poolSize) queries=\(total) tps=\(Int(perSecond))")
await pool.close()
