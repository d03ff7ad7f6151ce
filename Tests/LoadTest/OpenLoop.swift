import KindredRPC
import LoadTestKit

/// The open loop on the real clock: calls go out on `OpenLoopTimetable`'s schedule whatever the answers to
/// earlier ones are doing, round-robin over the users (each call its user's persona's choice), each timed from
/// when it was due and given `deadline` from then. Each call is a task of its own (`InFlight`) that ends when
/// its answer or its deadline comes, on its user's loop. With `--threads`, each loop runs an open loop of its
/// own, for its lane of the schedule and its own users (`LoadRun.openLoopLanes`), and sleeps on the loop's
/// timers, so neither a sleep nor a call wakes another thread (without loops, one open loop on the cooperative
/// pool with `Task.sleep`).
struct OpenLoop: Sendable {
    /// Calls due closer together than this go out together after one sleep: at thousands a second, a timer a
    /// call would cost more than the calls' own lag.
    static let coalesce: Duration = .microseconds(500)

    let schedule: ArrivalSchedule
    let users: [VirtualUser]
    let mix: Mix
    let deadline: Duration
    let inFlight: InFlight
    /// The loop this runs on, its users' own, or none: the cooperative pool.
    let loop: EventLoop?

    /// Sends every call due from `start` until `end` (the caller waits for them to end: `InFlight.drained`);
    /// returns how many the timetable skipped (their deadline passed before the tool got to them) and how many
    /// it never reached.
    func run(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant) async -> (
        expired: Int, unsent: Int
    ) {
        var timetable = OpenLoopTimetable(schedule: schedule, duration: end - start, deadline: deadline)
        var generator = SplitMix()
        sending: while !Task.isCancelled {
            let now = ContinuousClock.now
            switch timetable.step(at: now - start) {
            case .stop:
                break sending
            case .wait(let due):
                await sleep(until: max(start + due, now + Self.coalesce), on: loop)
            case .send(let index, let due):
                let user = users[index % users.count]
                let action = mix.choose(for: user.persona, using: &generator)
                let iteration = index / users.count
                inFlight.start(on: user.loop) {
                    await user.perform(action, due: start + due, iteration: iteration)
                }
            }
        }
        return (timetable.expired, timetable.unsent)
    }
}

/// Sleeps until `deadline`: on `loop`'s timers, for a task that runs on that loop (`--threads`), else with
/// `Task.sleep`. A cancelled task stops sleeping at once.
func sleep(until deadline: ContinuousClock.Instant, on loop: EventLoop?) async {
    if let loop {
        try? await loop.sleep(until: deadline)
    } else {
        try? await Task.sleep(until: deadline)
    }
}
