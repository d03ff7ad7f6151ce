import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT as an async event, so a service can drain instead of dying mid-call (and SIGHUP, so
/// it can reload its TLS files), and the load tool can report a run cut short.
public enum TerminationSignal {
    /// Takes over `numbers` (SIGTERM and SIGINT unless told) from their default action and returns a stream that
    /// yields the number of each one that arrives. Call once, early, before the server runs.
    public static func install(_ numbers: [Int32]? = nil) -> AsyncStream<Int32> {
        taken(numbers ?? [SIGTERM, SIGINT], restoringDefaults: false).stream
    }

    /// The first SIGINT or SIGTERM, nil if the calling task is cancelled before one arrives. Taken over from
    /// their default actions only while this waits: a tool that reports a run cut short by Ctrl-C dies of the
    /// next Ctrl-C.
    public static func first() async -> Int32? {
        let (stream, continuation) = taken([SIGTERM, SIGINT], restoringDefaults: true)
        defer { continuation.finish() }
        for await number in stream { return number }
        return nil
    }

    /// A stream of `numbers` as they arrive, and its continuation: once it ends, the signals stay ignored, or
    /// with `restoringDefaults` get their default action back.
    private static func taken(_ numbers: [Int32], restoringDefaults: Bool) -> (
        stream: AsyncStream<Int32>, continuation: AsyncStream<Int32>.Continuation
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = numbers.map { number in
            // The default action would kill the process before the dispatch source sees the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        let installed = InstalledSources(sources: sources)
        continuation.onTermination = { _ in
            installed.sources.forEach { $0.cancel() }
            if restoringDefaults { numbers.forEach { signal($0, SIG_DFL) } }
        }
        return (stream, continuation)
    }
}

/// Keeps the dispatch sources alive as long as the stream. Unchecked: the array never changes after
/// creation and dispatch sources are safe to cancel from any thread.
private final class InstalledSources: @unchecked Sendable {
    let sources: [any DispatchSourceSignal]

    init(sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }
}
