/// What a server has spent so far: CPU ticks (its own, its ended children's and its live children's) and the
/// context switches of every thread of it and of its live children. For a set of processes counted apart, such
/// as PostgreSQL's backends of one service, also each one's own (`processes`, by pid).
public struct ServerSpending: Sendable, Equatable {
    public var ticks: Int
    public var switches: ContextSwitches
    public var processes: [Int: ServerSpending]

    public init(
        ticks: Int = 0, switches: ContextSwitches = ContextSwitches(), processes: [Int: ServerSpending] = [:]
    ) {
        self.ticks = ticks
        self.switches = switches
        self.processes = processes
    }

    /// What was spent since `start`. Processes counted apart are counted one by one, each against its own
    /// earlier figure: one that ended in between leaves with its time (for PostgreSQL's backends, into the
    /// postmaster's), one that began since counts whole.
    public func since(_ start: ServerSpending) -> ServerSpending {
        guard !processes.isEmpty else {
            return ServerSpending(ticks: ticks - start.ticks, switches: switches - start.switches)
        }
        return processes.reduce(into: ServerSpending()) { sum, process in
            let earlier = start.processes[process.key] ?? ServerSpending()
            sum.ticks += process.value.ticks - earlier.ticks
            sum.switches = sum.switches + (process.value.switches - earlier.switches)
        }
    }
}
