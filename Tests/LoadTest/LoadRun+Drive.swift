import KindredRPC
import KindredThreads
import LoadTestKit

extension LoadRun {
    /// How `withHardStop` ended: the body finished, the hard stop came first, or a signal did.
    enum Ending<Value: Sendable>: Sendable {
        case finished(Value)
        case hardStop
        case interrupted
        /// A stop's task ended by the group's cancellation, after the ending was decided.
        case stood
    }

    /// Runs `body`, cancelling it at `stop` if it is still running then, or as soon as SIGINT (Ctrl-C) or
    /// SIGTERM arrives (the calls it has in flight end CANCELLED, reason `TOOL_STOPPED`, and it returns what it
    /// has): a run ends on time whatever the stack does, and one cut short still saves its sessions and
    /// reports. A session exchange under way is not cancelled (`authorizedOptions`), so the refresh tokens saved
    /// after it are the ones identity knows. Returns the body's value and whether a signal ended it.
    func withHardStop<Value: Sendable>(
        at stop: ContinuousClock.Instant, _ body: @escaping @Sendable () async -> Value
    ) async -> (value: Value?, interrupted: Bool) {
        await withTaskGroup(of: Ending<Value>.self) { group in
            group.addTask { .finished(await body()) }
            group.addTask {
                do { try await Task.sleep(until: stop) } catch { return .stood }
                return .hardStop
            }
            // Only the first signal is the tool's: a second Ctrl-C kills it.
            group.addTask { await TerminationSignal.first() == nil ? .stood : .interrupted }
            var value: Value?
            var interrupted = false
            var decided = false
            for await ending in group {
                switch ending {
                case .finished(let result): value = result
                case .hardStop where !decided:
                    say("hard stop: the calls and streams still running are cancelled")
                case .interrupted where !decided:
                    interrupted = true
                    say("interrupted: the calls and streams still running are cancelled; the report follows")
                case .hardStop, .interrupted, .stood: break
                }
                decided = true
                group.cancelAll()
            }
            return (value, interrupted)
        }
    }

    /// Every user (each starting over the ramp-up), the session save once they all resumed (`saveSessions`),
    /// and in the open loop its schedule, until each has ended; what the open loop skipped.
    func drive(
        _ users: [VirtualUser], started: ContinuousClock.Instant, loadStarts: ContinuousClock.Instant,
        end: ContinuousClock.Instant, saveSessions: @escaping @Sendable () -> Void
    ) async -> Skipped {
        await withTaskGroup(of: Skipped.self) { group in
            for user in users {
                let startAt =
                    started + .seconds(Double(options.rampUp) * Double(user.index) / Double(users.count))
                group.addTask(executorPreference: user.loop) {
                    await drive(user, startAt: startAt, loadStarts: loadStarts, end: end)
                    return Skipped()
                }
            }
            // Every user has resumed by then: their rotated refresh tokens are what identity knows now.
            group.addTask {
                try? await Task.sleep(until: loadStarts + .seconds(1))
                saveSessions()
                return Skipped()
            }
            if let schedule = options.schedule {
                group.addTask {
                    let skipped = await withTaskGroup(of: Skipped.self) { senders in
                        for lane in openLoopLanes(schedule, users: users) {
                            senders.addTask(executorPreference: lane.loop) {
                                let skipped = await lane.run(from: loadStarts, until: end)
                                return Skipped(expired: skipped.expired, unsent: skipped.unsent)
                            }
                        }
                        return await senders.reduce(into: Skipped()) { $0.add($1) }
                    }
                    await inFlight.drained()
                    return skipped
                }
            }
            return await group.reduce(into: Skipped()) { $0.add($1) }
        }
    }

    /// The open loop's senders: one a loop that has users (`--threads`), each sending its lane of the schedule
    /// to its own users, so that no call crosses to another loop's thread (with one sender for two loops, half
    /// the calls did, and two loops cost more CPU a call than one: README, "The tool's own CPU"); on the
    /// cooperative pool, one sender for every user. Each lane keeps the round robin over its users; loops
    /// holding unequal shares of the users give each of a smaller share's users a little more of the rate.
    private func openLoopLanes(_ schedule: ArrivalSchedule, users: [VirtualUser]) -> [OpenLoop] {
        let senders: [EventLoop?] =
            loops.isEmpty ? [nil] : loops.filter { loop in users.contains { $0.loop === loop } }
        return zip(schedule.lanes(senders.count), senders).map { lane, loop in
            OpenLoop(
                schedule: lane, users: users.filter { $0.loop === loop }, mix: mix,
                deadline: options.callDeadline, inFlight: inFlight, loop: loop)
        }
    }

    /// The open loop's calls never sent: expired (their deadline passed first) or unsent (the duration ended).
    struct Skipped: Sendable {
        var expired = 0
        var unsent = 0

        mutating func add(_ other: Skipped) {
            expired += other.expired
            unsent += other.unsent
        }
    }

    /// How the tool kept its schedule, from the recorder and the open loop's timetable; `stopped` counts the
    /// calls the hard stop cancelled and the open loop's calls it left running.
    func generator(skipped: Skipped?) -> RunReport.Generator {
        let schedule = recorder.schedule
        return RunReport.Generator(
            rate: options.rate ?? 0, deadline: options.callDeadline, lateness: schedule.lateness,
            expired: schedule.expired + (skipped?.expired ?? 0), unsent: skipped?.unsent ?? 0,
            stopped: schedule.stopped + inFlight.running)
    }

    /// A user: resumes its session at `startAt`, holds its streams until `end` (with `--without-streams`, stays
    /// connected until `end` holding none) and, in the closed loop, acts and thinks until `end`.
    private func drive(
        _ user: VirtualUser, startAt: ContinuousClock.Instant, loadStarts: ContinuousClock.Instant,
        end: ContinuousClock.Instant
    ) async {
        await sleep(until: startAt, on: user.loop)
        guard (try? await user.authorizedOptions()) != nil else { return }
        recorder.connectedUsers.add(1, ordering: .relaxed)
        async let stream: Void =
            options.withoutStreams
            ? sleep(until: end, on: user.loop) : user.holdStreams(until: end + Deliveries.grace)
        if options.rate == nil {
            var generator = SplitMix()
            var iteration = 0
            // Cancelled (the hard stop, a signal), a user stops acting: its calls would only end CANCELLED.
            while ContinuousClock.now < end, !Task.isCancelled {
                let think = Duration.seconds(options.think * Double.random(in: 0.5...1.5, using: &generator))
                await sleep(until: min(.now + think, end), on: user.loop)
                guard ContinuousClock.now < end, !Task.isCancelled else { break }
                await user.perform(mix.choose(for: user.persona, using: &generator), iteration: iteration)
                iteration += 1
            }
        }
        await stream
        recorder.connectedUsers.subtract(1, ordering: .relaxed)
    }
}
