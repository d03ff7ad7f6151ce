import KindredPostgres
public import Logging

/// A background sweep as it runs in every instance of a service: now, then every hour until the task is
/// cancelled at the drain or the pool closes. A failed sweep is logged and tried again at the next turn.
public func runHourly(_ name: String, logger: Logger, _ sweep: () async throws -> Void) async {
    while !Task.isCancelled {
        do {
            try await sweep()
        } catch let error as PostgresError where error.kind == .poolClosed {
            return
        } catch {
            if Task.isCancelled { return }
            logger.error("\(name) failed; retrying later", metadata: ["error": "\(error)"])
        }
        try? await Task.sleep(for: .seconds(3_600))
    }
}
