import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit

/// One run: checks the stack, starts the users over the ramp-up, drives them, waits for the last deliveries,
/// saves the users' rotated refresh tokens and reports.
struct LoadRun {
    let options: RunCommand
    let mix: Mix
    let recorder = Recorder()

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
            notifications: LiveStream(name: "notifications", users: options.users), seed: seed, mix: mix)
        let users = makeUsers(shared, saved: saved)
        try await checkSeeded(users[0])
        try sessions.save(saved.merging(rotatedTokens(users)) { _, new in new })
        let usage = ServerUsage(
            targets: options.targets, postgresPort: options.postgresPort == 0 ? nil : options.postgresPort)
        let ticksBefore = usage.ticks()

        let clock = ContinuousClock()
        let started = clock.now
        let loadStarts = started + .seconds(options.rampUp)
        let end = loadStarts + .seconds(options.duration)
        let live = Task {
            await LiveLine(recorder: recorder, users: users.count, started: started).print(until: end)
        }
        await withTaskGroup(of: Void.self) { group in
            for user in users {
                let startAt =
                    started + .seconds(Double(options.rampUp) * Double(user.index) / Double(users.count))
                group.addTask { await drive(user, startAt: startAt, loadStarts: loadStarts, end: end) }
            }
            // Every user has resumed by then: their rotated refresh tokens are what identity knows now.
            group.addTask {
                try? await Task.sleep(until: loadStarts + .seconds(1))
                try? sessions.save(saved.merging(rotatedTokens(users)) { _, new in new })
            }
            if let rate = options.rate, let schedule = ArrivalSchedule(callsPerSecond: rate) {
                group.addTask {
                    await OpenLoop(schedule: schedule, users: users, mix: mix).run(
                        from: loadStarts, until: end)
                }
            }
        }
        live.cancel()
        let ticksAfter = usage.ticks()
        try sessions.save(saved.merging(rotatedTokens(users)) { _, new in new })
        let rpcs = recorder.results
        let report = RunReport(
            rpcs: rpcs,
            realtime: [
                shared.messages.name: shared.messages.deliveries.finish(),
                shared.activity.name: shared.activity.deliveries.finish(),
                shared.notifications.name: shared.notifications.deliveries.finish(),
            ], cpu: usage.costs(before: ticksBefore, after: ticksAfter, rpcs: rpcs), users: users.count,
            duration: clock.now - started)
        ReportTable(report: report, tallies: rpcs).print()
        return report
    }

    /// A user: resumes its session at `startAt`, holds its stream until `end` and, in the closed loop, acts
    /// and thinks until `end`.
    private func drive(
        _ user: VirtualUser, startAt: ContinuousClock.Instant, loadStarts: ContinuousClock.Instant,
        end: ContinuousClock.Instant
    ) async {
        try? await Task.sleep(until: startAt)
        guard (try? await user.accessToken()) != nil else { return }
        recorder.connectedUsers.add(1, ordering: .relaxed)
        async let stream: Void = user.holdStreams(until: end + Deliveries.grace)
        if options.rate == nil {
            var generator = SystemRandomNumberGenerator()
            var iteration = 0
            while ContinuousClock.now < end {
                let think = Duration.seconds(options.think * Double.random(in: 0.5...1.5, using: &generator))
                try? await Task.sleep(until: min(.now + think, end))
                guard ContinuousClock.now < end else { break }
                await user.perform(mix.choose(for: user.persona, using: &generator), iteration: iteration)
                iteration += 1
            }
        }
        await stream
        recorder.connectedUsers.subtract(1, ordering: .relaxed)
    }

    private func makeUsers(_ shared: VirtualUser.Shared, saved: [Int: String]) -> [VirtualUser] {
        let groups = (options.users + options.usersPerConnection - 1) / options.usersPerConnection
        var configuration = ClientConfiguration()
        configuration.connectionsPerLoop = 1
        configuration.userAgent = "kindred-loadtest"
        // Failures are counted in the report; a warning per stream that reaches its deadline at the end is noise.
        configuration.logger.logLevel = .error
        let clients = (0..<groups).map { _ in
            VirtualUser.Clients(
                identity: try! RPCClient(target: options.targets["identity"], configuration: configuration),
                family: try! RPCClient(target: options.targets["family"], configuration: configuration),
                social: try! RPCClient(target: options.targets["social"], configuration: configuration),
                gamification: try! RPCClient(
                    target: options.targets["gamification"], configuration: configuration))
        }
        return (0..<options.users).map { index in
            VirtualUser(
                index: index, refreshToken: saved[index] ?? shared.seed.seededUsers.firstRefreshToken(index),
                clients: clients[index / options.usersPerConnection], shared: shared)
        }
    }

    private func rotatedTokens(_ users: [VirtualUser]) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: users.map { ($0.index, $0.refreshToken) })
    }
}
