import KindredRPC
import LoadTestKit

extension VirtualUser {
    /// Runs one call of `method` (reported under `label` when given), timed from `due` (the open loop's due
    /// time) or from now, with its deadline that long after: the call gets options carrying the user's access
    /// token and that deadline. A user without a session (its resume failed) does not call: the call is a
    /// failure of `method` with the reason `NO_SESSION`. True when the call succeeded.
    @discardableResult
    func timed(
        _ method: MethodDescriptor, as label: String? = nil, from due: ContinuousClock.Instant? = nil,
        isExpected: (RPCError) -> Bool = { _ in false }, _ call: (CallOptions) async throws -> Void
    ) async -> Bool {
        let started = due ?? .now
        let options: CallOptions
        do {
            options = try await authorizedOptions()
        } catch {
            recorder.record(
                label ?? method.path, latency: .now - started,
                failure: RPCTally.Failure(status: Recorder.failure(of: error).status, reason: Self.noSession))
            return false
        }
        return await recorder.time(method, as: label, from: due, isExpected: isExpected) {
            var timed = options
            timed.deadline = started + shared.deadline
            try await call(timed)
        }
    }

    /// The reason of a call not made: its user has no access token.
    static let noSession = "NO_SESSION"
}
