extension EventLoop {
    /// Starts `count` event loops of a client program's own, each on a thread of its own, for a program that
    /// spreads its callers over several threads (a load generator): a task that prefers one of them
    /// (`Task(executorPreference:)`) makes its calls on that loop's connections and sleeps on its timers
    /// (`sleep(until:)`) without crossing threads. They run for the rest of the process.
    public static func startClientLoops(count: Int) throws(SystemCallError) -> [EventLoop] {
        try EventLoopGroup(count: count, name: "client-loop").loops
    }
}
