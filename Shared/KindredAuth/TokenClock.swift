#if canImport(Glibc)
internal import Glibc
#endif

/// Where a verifier reads the time, in whole seconds since the Unix epoch; tests pass a fixed one.
public struct TokenClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that reads `now()`.
    public init(now: @escaping @Sendable () -> Int64) {
        read = now
    }

    /// The system's real-time clock.
    public static let system = TokenClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec)
    }

    /// The current time.
    public var now: Int64 { read() }
}
