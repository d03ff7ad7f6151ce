/// The deadline of the RPC the current task serves, so that calls it makes to other services
/// inherit what remains of it.
public enum RPCDeadline {
    /// The current call's deadline; the server sets it around each handler, nil outside one.
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// The earlier of `deadline` and the current call's deadline.
    static func effective(_ deadline: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard let inherited = current else { return deadline }
        return min(inherited, deadline)
    }
}
