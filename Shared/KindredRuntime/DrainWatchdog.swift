import KindredThreads
import Logging

/// Ends a process whose drain does not end. Once the drain begins, a thread of its own (not the cooperative
/// pool or a loop, which a hang may hold) waits `limit`, then logs and exits 1. Without it, a drain that hangs
/// (a deadlock in shutdown, as `EventReadAhead` once had) keeps a stopped service's process, port and
/// database connections until someone kills it, and `deploy/local/down` waits for it forever.
enum DrainWatchdog {
    /// What the drain may take beyond its timeout for calls: stopping the background work, the pool's close.
    static let grace = Duration.seconds(5)

    /// Starts the watchdog: `exit(1)` after `limit`, unless the process ended first.
    static func start(
        limit: Duration, logger: Logger,
        exit: @escaping @Sendable (Int32) -> Void = { ServiceMain.terminate($0) }
    ) {
        do {
            try DetachedThread.start(name: "drain-watchdog") {
                DetachedThread.sleep(for: limit)
                logger.error(
                    "the drain did not end in time; exiting", metadata: ["limit": "\(limit)"])
                exit(1)
            }
        } catch {
            logger.warning("the drain has no watchdog", metadata: ["error": "\(error)"])
        }
    }
}
