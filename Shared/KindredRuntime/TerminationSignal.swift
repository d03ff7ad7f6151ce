import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT as an async event, so a service can drain instead of dying mid-call (and SIGHUP, so
/// it can reload its TLS files).
enum TerminationSignal {
    /// Takes over `numbers` (SIGTERM and SIGINT unless told) from their default action and returns a stream that yields
    /// the number of each one that arrives. Call once, early, before the server runs.
    static func install(_ numbers: [Int32] = [SIGTERM, SIGINT]) -> AsyncStream<Int32> {
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
        continuation.onTermination = { _ in installed.sources.forEach { $0.cancel() } }
        return stream
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
