import Foundation
import KindredMail
import KindredTestSupport
import Synchronization

/// A transport that fails with the given errors first, in order, then accepts and records every message,
/// with the worker-clock time of each call.
final class ScriptedTransport: MailTransport {
    private let state: Mutex<(failures: [MailTransportError], delivered: [OutgoingMail], calls: [Date])>
    private let clock: ManualClock?

    init(failures: [MailTransportError] = [], clock: ManualClock? = nil) {
        state = Mutex((failures, [], []))
        self.clock = clock
    }

    func deliver(_ mail: OutgoingMail) async throws(MailTransportError) {
        let failure: MailTransportError? = state.withLock { state in
            state.calls.append(clock?.now() ?? Date())
            guard state.failures.isEmpty else { return state.failures.removeFirst() }
            state.delivered.append(mail)
            return nil
        }
        if let failure { throw failure }
        // Give a concurrent worker a chance to run between claim and record.
        await Task.yield()
    }

    var delivered: [OutgoingMail] { state.withLock { $0.delivered } }
    var calls: [Date] { state.withLock { $0.calls } }
}

/// A transport whose every send hangs, as a worker's does when its process dies mid-send: `started` returns
/// once a send began; the send ends (failing) only when its task is cancelled.
final class StalledTransport: MailTransport {
    private let (sends, sendStarted) = AsyncStream.makeStream(of: Void.self)

    func deliver(_ mail: OutgoingMail) async throws(MailTransportError) {
        sendStarted.yield()
        try? await untilCancelled()
        throw .temporary("stalled until cancelled")
    }

    /// Waits for a send to begin.
    func started() async {
        var iterator = sends.makeAsyncIterator()
        await iterator.next()
    }
}

/// A clock the test moves by hand; starts a minute ahead of real time, so rows that PostgreSQL stamped
/// with its own `now()` are already due.
final class ManualClock: Sendable {
    private let current = Mutex(Date().addingTimeInterval(60))

    func now() -> Date { current.withLock { $0 } }

    func advance(by duration: Duration) {
        current.withLock {
            $0 = $0.addingTimeInterval(
                Double(duration.components.seconds)
                    + Double(duration.components.attoseconds) / 1e18)
        }
    }
}

extension OutgoingMail {
    /// The message as text (it is ASCII by construction).
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
