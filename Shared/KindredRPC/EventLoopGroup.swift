#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Event loops, each running on its own thread, handed out round-robin.
final class EventLoopGroup: Sendable {
    let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// Starts `count` loops on new threads.
    init(count: Int) throws(SystemError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) { loops.append(try EventLoop(index: index)) }
        self.loops = loops
        for loop in loops { Self.startThread(for: loop) }
    }

    /// The next loop in turn.
    func next() -> EventLoop {
        loops[nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Asks every loop to stop after its current iteration.
    func shutdown() {
        for loop in loops { loop.execute { loop.stopping = true } }
    }

    /// One loop for clients used outside any server, started on first use and kept for the process.
    static let shared: EventLoopGroup = {
        do { return try EventLoopGroup(count: 1) } catch { fatalError("cannot start the client event loop: \(error)") }
    }()

    private static func startThread(for loop: EventLoop) {
        let box = Unmanaged.passRetained(loop).toOpaque()
        var thread = pthread_t()
        let rv = pthread_create(&thread, nil, { argument in
            let loop = Unmanaged<EventLoop>.fromOpaque(argument!).takeRetainedValue()
            loop.runAsCurrent()
            return nil
        }, box)
        precondition(rv == 0, "pthread_create failed")
        pthread_detach(thread)
    }
}
