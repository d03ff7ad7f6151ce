import Foundation
import KindredRPC
import Synchronization

/// Calls kept in flight for a while: `inFlight` workers spread over `connections` clients, each calling again
/// as soon as its last call ends; each call's latency is kept, and any outcome but the expected one counts
/// as failed.
struct LoadRun {
    let connections: Int
    let inFlight: Int
    let duration: Duration

    struct Outcome {
        var latencies: [Duration] = []
        var failed = 0
    }

    /// Runs `call(worker, client, iteration)`, which throws on an unexpected outcome.
    func run(
        target: String, _ call: @escaping @Sendable (Int, RPCClient, Int) async throws -> Void
    ) async throws -> (outcome: Outcome, elapsed: Duration) {
        let clients = try (0..<connections).map { _ in try RPCClient(target: target) }
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + duration
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            for worker in 0..<inFlight {
                let client = clients[worker % clients.count]
                group.addTask {
                    var mine = Outcome()
                    var iteration = 0
                    while clock.now < deadline {
                        let began = clock.now
                        do {
                            try await call(worker, client, iteration)
                            mine.latencies.append(clock.now - began)
                        } catch {
                            mine.failed += 1
                        }
                        iteration += 1
                    }
                    return mine
                }
            }
            var total = Outcome()
            for await part in group {
                total.latencies += part.latencies
                total.failed += part.failed
            }
            return total
        }
        let elapsed = clock.now - started
        for client in clients { client.close() }
        return (outcome, elapsed)
    }
}
