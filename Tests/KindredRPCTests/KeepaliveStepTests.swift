import Testing

@testable import KindredRPC

private typealias Step = ClientConnection.KeepaliveStep

/// One row: calls open, silence (ms), the outstanding PING's answer (nil: none outstanding), the step.
private struct KeepaliveCase: Sendable, CustomTestStringConvertible {
    let streamsOpen: Bool
    let silence: Int
    let answered: Bool?
    let step: Step

    var testDescription: String {
        "open \(streamsOpen), silent \(silence) ms, answered \(String(describing: answered))"
    }
}

private let interval = Duration.milliseconds(100)

private let keepaliveCases: [KeepaliveCase] = [
    KeepaliveCase(streamsOpen: true, silence: 0, answered: nil, step: .check(after: interval)),
    KeepaliveCase(streamsOpen: true, silence: 40, answered: nil, step: .check(after: .milliseconds(60))),
    KeepaliveCase(streamsOpen: true, silence: 100, answered: nil, step: .ping),
    KeepaliveCase(streamsOpen: true, silence: 5_000, answered: nil, step: .ping),
    KeepaliveCase(streamsOpen: true, silence: 150, answered: true, step: .ping),
    KeepaliveCase(streamsOpen: true, silence: 150, answered: false, step: .close),
    KeepaliveCase(streamsOpen: false, silence: 150, answered: false, step: .close),
    KeepaliveCase(streamsOpen: false, silence: 0, answered: nil, step: .check(after: interval)),
    // Regression: an idle connection silent past the interval was re-checked every millisecond.
    KeepaliveCase(streamsOpen: false, silence: 5_000, answered: nil, step: .check(after: interval)),
    KeepaliveCase(streamsOpen: false, silence: 150, answered: true, step: .check(after: interval)),
]

/// The client's keepalive decision as a table: silence, open calls and an outstanding PING in, one step out.
@Suite struct KeepaliveStepTests {
    @Test(arguments: keepaliveCases)
    fileprivate func aCheckPingsOnlyASilentConnectionWithCallsOpenAndNeverSpins(_ row: KeepaliveCase) {
        let step = ClientConnection.keepaliveStep(
            streamsOpen: row.streamsOpen, silence: .milliseconds(row.silence), interval: interval,
            pingAnswered: row.answered)
        #expect(step == row.step)
    }
}
