import Foundation

/// Every 5 s while the run lasts: users connected, streams open, calls a second, errors and p99 over the last
/// window.
struct LiveLine {
    static let every: Duration = .seconds(5)

    let recorder: Recorder
    let users: Int
    let started: ContinuousClock.Instant

    func print(until end: ContinuousClock.Instant) async {
        while ContinuousClock.now < end, !Task.isCancelled {
            try? await Task.sleep(for: Self.every)
            let window = recorder.takeWindow()
            let seconds = Self.every.components.seconds
            let line = String(
                format: "t=%3ds  users %d/%d  streams %d  calls/s %.0f  errors %d  p99 %.1f ms",
                (ContinuousClock.now - started).components.seconds,
                recorder.connectedUsers.load(ordering: .relaxed),
                users, recorder.openStreams.load(ordering: .relaxed), Double(window.calls) / Double(seconds),
                window.errors, window.latencies.percentileMilliseconds(0.99))
            say(line)
        }
    }
}
