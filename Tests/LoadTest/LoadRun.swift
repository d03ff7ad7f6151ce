import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit
import Synchronization

/// One run: checks the stack, starts the users over the ramp-up, drives them, waits for the last deliveries,
/// saves the users' rotated refresh tokens and reports.
struct LoadRun {
    let options: RunOptions
    let mix: Mix
    let recorder: Recorder
    let inFlight = InFlight()
    /// Where the users run (`--threads` event loops; none: the cooperative pool): a user's calls, streams,
    /// sleeps and bookkeeping all run on the loop that does its connections' I/O. On the cooperative pool each
    /// call crosses threads twice (to the client's loop and back), each stream message twice more, and each of
    /// the open loop's sleeps wakes the dispatch timer thread: most of the tool's CPU (issue 27, README).
    let loops: [EventLoop]

    init(options: RunOptions, mix: Mix) {
        self.options = options
        self.mix = mix
        recorder = Recorder(deadline: options.callDeadline)
        loops = Self.loops(options.threads)
    }

    func run() async throws -> RunReport {
        let seed = try SeedFile.load(options.seedFile)
        guard options.users <= seed.seeded else {
            throw ToolError(
                "\(options.seedFile) holds \(seed.seeded) seeded users, fewer than --users \(options.users): "
                    + "seed more (kindred-loadtest seed --users \(options.users) --seed-file <new file>).")
        }
        try await checkReachable()
        let sessions = SessionFile(seedFile: options.seedFile)
        let saved = sessions.load()
        let shared = VirtualUser.Shared(
            recorder: recorder, messages: LiveStream(name: "messages", users: options.users),
            activity: LiveStream(name: "profile_activity", users: options.users),
            notifications: LiveStream(name: "notifications", users: options.users), seed: seed, mix: mix,
            deadline: options.callDeadline)
        let users = makeUsers(shared, saved: saved)
        try await checkSeeded(users[0])
        try sessions.save(saved.merging(rotatedTokens(users)) { _, new in new })
        let usage = ServerUsage(
            targets: options.targets, postgresPort: options.postgresPort == 0 ? nil : options.postgresPort)
        let ticksBefore = usage.snapshot()

        let clock = ContinuousClock()
        let started = clock.now
        let loadStartedAt = Date(timeIntervalSinceNow: Double(options.rampUp))
        let loadStarts = started + .seconds(options.rampUp)
        let end = loadStarts + .seconds(options.duration)
        recorder.startTimeline(at: loadStarts)
        let live = Task {
            await LiveLine(recorder: recorder, users: users.count, started: started).print(until: end)
        }
        // Calls in flight get their deadline, streams their grace, then whatever still runs is cancelled.
        let hardStop = end + max(Deliveries.grace, options.callDeadline) + .seconds(1)
        let (skipped, interrupted) = await withHardStop(at: hardStop) {
            await drive(users, started: started, loadStarts: loadStarts, end: end) {
                try? sessions.save(saved.merging(rotatedTokens(users)) { _, new in new })
            }
        }
        live.cancel()
        let ticksAfter = usage.snapshot()
        try sessions.save(saved.merging(rotatedTokens(users)) { _, new in new })
        let rpcs = recorder.results
        let timeline = recorder.timeline
        let report = RunReport(
            rpcs: rpcs,
            realtime: [
                shared.messages.name: shared.messages.deliveries.finish(),
                shared.activity.name: shared.activity.deliveries.finish(),
                shared.notifications.name: shared.notifications.deliveries.finish(),
            ], cpu: usage.costs(before: ticksBefore, after: ticksAfter, rpcs: rpcs),
            generator: generator(skipped: skipped), replicas: await replicaCounts(users), users: users.count,
            duration: clock.now - started, interrupted: interrupted, timeline: timeline,
            surge: options.surge.map {
                RunReport.Surge(
                    $0, timeline: timeline, seconds: options.duration, budgetMs: options.recoveryBudgetMs)
            }, loadStartedAt: loadStartedAt)
        ReportTable(report: report, tallies: rpcs).print()
        return report
    }

    private func makeUsers(_ shared: VirtualUser.Shared, saved: [Int: String]) -> [VirtualUser] {
        let groups = (options.users + options.usersPerConnection - 1) / options.usersPerConnection
        var configuration = ClientConfiguration()
        configuration.connectionsPerLoop = 1
        configuration.userAgent = "kindred-loadtest"
        // Failures are counted in the report; a warning per stream that reaches its deadline at the end is noise.
        configuration.logger.logLevel = .error
        if options.clientThrottle > 0 {
            configuration.throttle = ClientThrottle.Settings(k: options.clientThrottle)
        }
        options.targets.configure(&configuration)
        let clients = (0..<groups).map { _ in
            VirtualUser.Clients(
                identity: try! RPCClient(target: options.targets["identity"], configuration: configuration),
                family: try! RPCClient(target: options.targets["family"], configuration: configuration),
                social: try! RPCClient(target: options.targets["social"], configuration: configuration),
                gamification: try! RPCClient(
                    target: options.targets["gamification"], configuration: configuration))
        }
        // The users of one connection share a loop: their clients' connections then live on it alone.
        return (0..<options.users).map { index in
            let group = index / options.usersPerConnection
            return VirtualUser(
                index: index, refreshToken: saved[index] ?? shared.seed.seededUsers.firstRefreshToken(index),
                clients: clients[group], loop: loops.isEmpty ? nil : loops[group % loops.count],
                shared: shared)
        }
    }

    /// The process's client loops, started once and shared by every run of it (each step of `knee`).
    private static func loops(_ count: Int) -> [EventLoop] {
        started.withLock { started in
            if started.count < count {
                started += try! EventLoop.startClientLoops(count: count - started.count)
            }
            return Array(started.prefix(count))
        }
    }

    private static let started = Mutex<[EventLoop]>([])

    private func rotatedTokens(_ users: [VirtualUser]) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: users.map { ($0.index, $0.refreshToken) })
    }
}
