import LoadTestKit

/// The open loop: calls arrive on the schedule whatever the answers to earlier ones are doing, round-robin
/// over the users (each call its user's persona's choice), each timed from when it was due.
struct OpenLoop: Sendable {
    let schedule: ArrivalSchedule
    let users: [VirtualUser]
    let mix: Mix

    func run(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            var generator = SystemRandomNumberGenerator()
            var index = 0
            while true {
                let due = start + schedule.due(index)
                guard due < end else { break }
                try? await Task.sleep(until: due)
                let user = users[index % users.count]
                let action = mix.choose(for: user.persona, using: &generator)
                let iteration = index / users.count
                group.addTask { await user.perform(action, due: due, iteration: iteration) }
                index += 1
            }
        }
    }
}
