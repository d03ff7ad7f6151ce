import Synchronization

/// Event loops, each running on its own thread, handed out round-robin.
final class EventLoopGroup: Sendable {
    let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// Starts `count` loops on new threads, called `<name>-<index>`.
    init(count: Int, name: String) throws(SystemCallError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(index: index, threadName: "\(name)-\(index)"))
        }
        self.loops = loops
        for loop in loops { loop.startThread() }
    }

    /// The next loop in turn.
    func next() -> EventLoop {
        loops[nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// One loop for clients used outside any server, started on first use and kept for the process.
    static let shared: EventLoopGroup = {
        do { return try EventLoopGroup(count: 1, name: "background") } catch {
            fatalError("cannot start the client event loop: \(error)")
        }
    }()
}

extension EventLoop {
    /// The loop that runs clients outside any server's calls, for work a service does on its own (event
    /// consumers, sweeps): a task that prefers it sends its statements on the loop's own PostgreSQL connection
    /// and its peer calls on the loop's connections, so neither crosses a thread.
    public static var background: EventLoop { EventLoopGroup.shared.next() }
}
