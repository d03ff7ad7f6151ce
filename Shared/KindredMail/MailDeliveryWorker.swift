public import FoundationEssentials
public import KindredPostgres
public import Logging
internal import Synchronization

/// Sends what a service's outbox holds: claims due messages one at a time, hands each to the transport,
/// marks it sent, or records the error and retries later with capped exponential backoff. An unsent
/// message is never deleted. Wakes on the outbox's NOTIFY and polls for retries; several workers (one per
/// instance) share an outbox without sending a message twice at once.
public final class MailDeliveryWorker: Sendable {
    let outbox: MailOutbox
    let database: PostgresPool
    let transport: any MailTransport
    let from: MailAddress
    let policy: MailDeliveryPolicy
    let logger: Logger
    let now: @Sendable () -> Date
    let wake = WakeSignal()
    private let stopping = Atomic(false)
    let lastPrune = Mutex<Date?>(nil)
    /// How often sent mail older than the retention is deleted.
    static let pruneInterval = Duration.seconds(3600)

    /// A worker for `outbox`, sending through `transport` as `from`. `now` is the clock every due time is
    /// computed with (tests move it).
    public init(
        outbox: MailOutbox, database: PostgresPool, transport: any MailTransport, from: MailAddress,
        policy: MailDeliveryPolicy = MailDeliveryPolicy(), logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.outbox = outbox
        self.database = database
        self.transport = transport
        self.from = from
        self.policy = policy
        self.logger = logger
        self.now = now
        registerMetrics()
    }

    /// A worker with the transport and sender the settings name (`--mail`, `KINDRED_MAIL_FROM`).
    public convenience init(
        outbox: MailOutbox, database: PostgresPool, settings: MailSettings, logger: Logger
    ) {
        self.init(
            outbox: outbox, database: database, transport: settings.makeTransport(), from: settings.from,
            logger: logger)
    }

    /// Delivers until `stop()` is called or the task is cancelled; then finishes the message in hand
    /// (its outcome is recorded) and returns. One `run` at a time per worker.
    public func run() async {
        let listener = startListener()
        let relay = Task { [wake] in
            guard let listener else { return }
            for await _ in listener.notifications { wake.signal() }
        }
        logger.info("mail delivery started", metadata: ["outbox": "\(outbox.table)"])
        await withTaskCancellationHandler {
            while !isStopping {
                // A task of its own, so cancelling `run` cannot cut the recording of a message already sent.
                let pause = await Task { await self.pass() }.value
                guard !isStopping else { break }
                await wake.wait(upTo: pause)
            }
        } onCancel: {
            stop()
        }
        await listener?.close()
        await relay.value
        logger.info("mail delivery stopped", metadata: ["outbox": "\(outbox.table)"])
    }

    /// Asks `run` to return after the message in hand.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake.signal()
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// One pass: prune when due, send what is due; returns how long to sleep unless woken.
    func pass() async -> Duration {
        do {
            try await pruneIfDue()
            try await deliverDue()
            guard let next = try await outbox.nextAttempt(on: database) else { return policy.pollInterval }
            let untilDue = Duration.seconds(next.timeIntervalSince(now()))
            // At least a moment, so a row another worker is claiming right now cannot make this spin.
            return min(max(untilDue, .milliseconds(50)), policy.pollInterval)
        } catch {
            logger.warning("mail delivery paused: the outbox is unreachable", metadata: ["error": "\(error)"])
            return policy.pollInterval
        }
    }

    /// LISTEN on the outbox's channel; a reconnection wakes the worker too, to catch what it missed.
    private func startListener() -> PostgresListener? {
        do {
            return try PostgresListener(
                configuration: database.configuration, channels: [outbox.channel], logger: logger)
        } catch {
            logger.warning(
                "mail delivery cannot listen for new mail; polling only", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
