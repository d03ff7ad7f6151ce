public import Logging
import Synchronization

extension TraceContext {
    /// The trace of the work the current task does: the server sets it around each handler, an event
    /// consumer around each batch; calls made meanwhile carry it as their `traceparent`.
    @TaskLocal public static var current: TraceContext?

    /// Adds `trace_id` and `span_id` to every log line made while a trace is current, whichever logger
    /// writes it (give it to the log handler at bootstrap).
    public static let logMetadata = Logger.MetadataProvider {
        guard let trace = current else { return [:] }
        return ["trace_id": .string(trace.traceID), "span_id": .string(trace.spanIDText)]
    }
}

/// Trace and span ids without a system call per id: splitmix64 over one atomic counter seeded from the
/// system's random source once. Ids need to be unique and unguessable enough to not collide, not secret.
enum TraceIDs {
    private static let state = Atomic<UInt64>(UInt64.random(in: 0...UInt64.max))

    static func next() -> UInt64 {
        var z = state.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func nextSpan() -> UInt64 {
        let id = next()
        return id == 0 ? 1 : id
    }
}
