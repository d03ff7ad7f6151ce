import Foundation

/// Runs blocking `work` (waiting for a child process, say) on a new thread and awaits its result. Waiting on the
/// calling thread would hold one of Swift's cooperative threads, which a 2-core machine has two of, or a test's
/// event loop, for as long as the work blocks; every other test's task behind it stalls, and client tests in
/// other suites fail their deadlines (CI rehearsals of sessions 18 and 19).
func onItsOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
