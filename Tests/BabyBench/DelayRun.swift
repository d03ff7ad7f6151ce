import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `WatchProfileActivity` under load: `streams` streams of the followers (round-robin) on one profile, spread
/// over `connections` clients, while comments are posted at `rate` a second. Streams open without a cursor, so
/// the run first posts warm-up comments until one reached every stream, then measures. An entry is matched to
/// its comment by the comment's unique text, which the entry's detail carries.
struct DelayRun: Sendable {
    let followers: [String]
    let profile: String
    let streams: Int
    let connections: Int
    let rate: Int
    let duration: Duration

    struct Outcome {
        var delays: [Duration] = []
        /// Deliveries that never came: entries committed × streams − deliveries.
        var missed = 0
        var elapsed: Duration = .zero
    }

    /// What the streams received and when the writer's comments were acknowledged, in monotonic nanoseconds.
    final class Log: Sendable {
        let arrivals = Mutex<[(id: String, at: UInt64)]>([])
        let commits = Mutex<[String: UInt64]>([:])
        let warm: Mutex<Set<Int>> = Mutex([])
    }

    func run(target: String, writer: CommentWriter) async throws -> Outcome {
        let clients = try (0..<connections).map { _ in try RPCClient(target: target) }
        let log = Log()
        let tasks = openStreams(on: clients, into: log)
        for _ in 0..<120 where log.warm.withLock({ $0.count }) < streams {
            _ = try await writer.post("warm-up")
            try await Task.sleep(for: .milliseconds(500))
        }
        let clock = ContinuousClock()
        let started = clock.now
        let total = rate * Int(duration.components.seconds)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<total {
                try? await clock.sleep(until: started + .seconds(Double(index) / Double(rate)))
                group.addTask {
                    guard let text = try? await writer.post("bench") else { return }
                    let now = Self.monotonicNanoseconds()
                    log.commits.withLock { $0[text] = now }
                }
            }
        }
        let expected = log.commits.withLock { $0.count } * streams
        for _ in 0..<100 where log.arrivals.withLock({ $0.count }) < expected {
            try await Task.sleep(for: .milliseconds(100))
        }
        let elapsed = clock.now - started
        tasks.forEach { $0.cancel() }
        for task in tasks { await task.value }
        for client in clients { client.close() }
        let commits = log.commits.withLock { $0 }
        let delays = log.arrivals.withLock { $0 }.compactMap { arrival in
            commits[arrival.id].map { Duration.nanoseconds(Int64(arrival.at) - Int64($0)) }
        }
        return Outcome(delays: delays, missed: expected - delays.count, elapsed: elapsed)
    }

    /// The streams, each recording what it receives: a measured entry's arrival, or that it is warm.
    private func openStreams(on clients: [RPCClient], into log: Log) -> [Task<Void, Never>] {
        (0..<streams).map { stream in
            let client = clients[stream % clients.count]
            let token = followers[stream % followers.count]
            return Task {
                var options = CallOptions(timeout: .seconds(3_600))
                options.metadata.add("authorization", "Bearer \(token)")
                let updates = Kindred_Family_V1_FamilyService.Client(client).watchProfileActivity(
                    .init(profileIds: [profile]), options: options)
                do {
                    for try await update in updates {
                        let now = Self.monotonicNanoseconds()
                        guard let activity = update.activity else { continue }
                        if activity.detail.hasPrefix("warm-up") {
                            log.warm.withLock { _ = $0.insert(stream) }
                        } else {
                            log.arrivals.withLock { $0.append((activity.detail, now)) }
                        }
                    }
                } catch {}
            }
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
