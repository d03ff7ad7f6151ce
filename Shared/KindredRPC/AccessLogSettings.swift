/// What the access log writes. Health checks and reflection, which probes and tools call all day, are
/// counted in the metrics and not logged unless asked; calls a client can end at will by the thousand (reset,
/// refused before their handler, malformed) are written a few a second per connection, the rest counted and
/// summarized once a second, so that no client decides how much the server writes.
public struct AccessLogSettings: Sendable, Equatable {
    /// Whether `grpc.health.v1.Health` and server reflection calls leave access lines (off by default).
    public var logsProbes = false
    /// Reset, refused and malformed calls a connection may leave as lines per `summaryWindow`.
    public var noisyLinesPerWindow = 5
    /// How often the counted lines are summarized; also the window that `noisyLinesPerWindow` counts over.
    public var summaryWindow = Duration.seconds(1)

    /// The defaults: probes not logged, five noisy lines a second per connection.
    public init() {}

    /// The services whose calls are probes.
    static let probeServices: Set<String> = [
        "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    ]
}
