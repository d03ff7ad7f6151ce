import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `WatchMessages` under load: every watched user holds `streamsPerUser` streams, spread over `connections`
/// clients, while adults send them `rate` messages a second, round-robin. A delivery is one message reaching
/// one stream; its latency runs from the moment its SendMessage was sent (the text carries it) to the moment
/// the stream hands it over. Streams open without a cursor, so the run first waits until a warm-up message
/// reached every stream, then measures.
struct WatchRun: Sendable {
    let watched: [Scene.Person]
    let senders: [Scene.Sender]
    let streamsPerUser: Int
    let connections: Int
    let rate: Int
    let duration: Duration

    struct Outcome {
        var latencies: [Duration] = []
        /// Deliveries that never came (sent × streams per user − delivered) plus sends that failed.
        var failed = 0
        var elapsed: Duration = .zero
    }

    /// What the streams received, shared by their tasks.
    final class DeliveryLog: Sendable {
        let state: Mutex<(count: Int, latencies: [Duration], warm: [Int])>
        /// Deliveries count from the first measured send on.
        let recording = Atomic(false)
        let failedSends = Atomic(0)

        init(users: Int) {
            state = Mutex((0, [], Array(repeating: 0, count: users)))
        }
    }

    /// Opens the streams, warms them up, sends for `duration` at `rate`, waits up to 5 s for the last
    /// deliveries; `measure(true)` and `measure(false)` bracket the measured part (the server's CPU).
    func run(target: String, measure: (_ started: Bool) throws -> Void) async throws -> Outcome {
        let clients = try (0..<connections).map { _ in try RPCClient(target: target) }
        let sender = try RPCClient(target: target)
        let log = DeliveryLog(users: watched.count)
        let streams = openStreams(on: clients, into: log)
        try await warmUp(log, through: sender)
        log.recording.store(true, ordering: .relaxed)
        try measure(true)
        let clock = ContinuousClock()
        let started = clock.now
        let sent = await sendPaced(through: sender, log)
        let expected = (sent - log.failedSends.load(ordering: .relaxed)) * streamsPerUser
        for _ in 0..<50 where log.state.withLock({ $0.count }) < expected {
            try await Task.sleep(for: .milliseconds(100))
        }
        let elapsed = clock.now - started
        try measure(false)
        streams.forEach { $0.cancel() }
        for stream in streams { await stream.value }
        for client in clients + [sender] { client.close() }
        return log.state.withLock { state in
            Outcome(
                latencies: state.latencies,
                failed: expected - state.count + log.failedSends.load(ordering: .relaxed), elapsed: elapsed)
        }
    }

    /// Every watched user's streams, each recording what it receives: a measured message's latency, or a
    /// warm-up.
    private func openStreams(on clients: [RPCClient], into log: DeliveryLog) -> [Task<Void, Never>] {
        watched.enumerated().flatMap { user, person in
            (0..<streamsPerUser).map { stream in
                let client = clients[(user * streamsPerUser + stream) % clients.count]
                return Task {
                    var options = CallOptions(timeout: .seconds(3_600))
                    options.metadata.add("authorization", "Bearer \(person.token)")
                    let inbox = Kindred_Social_V1_SocialService.Client(client).watchMessages(
                        .init(), options: options)
                    do {
                        for try await message in inbox {
                            let now = Self.monotonicNanoseconds()
                            log.state.withLock { state in
                                guard let sentAt = UInt64(message.text.dropFirst("bench ".count)) else {
                                    return state.warm[user] += 1
                                }
                                guard log.recording.load(ordering: .relaxed) else { return }
                                state.count += 1
                                state.latencies.append(.nanoseconds(Int64(now) - Int64(sentAt)))
                            }
                        }
                    } catch {}
                }
            }
        }
    }

    /// Sends a warm-up to each user until one reached every stream of theirs (a stream sends only what
    /// arrives after it started).
    private func warmUp(_ log: DeliveryLog, through client: RPCClient) async throws {
        for _ in 0..<100 {
            let cold = log.state.withLock { state in
                let cold = (0..<watched.count).filter { state.warm[$0] < streamsPerUser }
                for user in cold { state.warm[user] = 0 }
                return cold
            }
            if cold.isEmpty { return }
            await withTaskGroup(of: Void.self) { group in
                for user in cold {
                    group.addTask { try? await send("warm-up", to: user, from: user, client) }
                }
            }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Sends `rate` messages a second for `duration`, each when its time comes whatever the earlier ones
    /// are doing; returns how many it sent.
    private func sendPaced(through client: RPCClient, _ log: DeliveryLog) async -> Int {
        let clock = ContinuousClock()
        let started = clock.now
        let total = rate * Int(duration.components.seconds)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<total {
                try? await clock.sleep(until: started + .seconds(Double(index) / Double(rate)))
                group.addTask {
                    do {
                        try await send("bench \(Self.monotonicNanoseconds())", to: index, from: index, client)
                    } catch {
                        log.failedSends.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        return total
    }

    /// Sends `text` to watched user `user % count` from adult `sender % count`.
    private func send(_ text: String, to user: Int, from sender: Int, _ client: RPCClient) async throws {
        var options = CallOptions(timeout: .seconds(30))
        options.metadata.add("authorization", "Bearer \(senders[sender % senders.count].token)")
        _ = try await Kindred_Social_V1_SocialService.Client(client).sendMessage(
            .init(
                requestID: UUID().uuidString, recipientUserID: watched[user % watched.count].id, text: text),
            options: options)
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
