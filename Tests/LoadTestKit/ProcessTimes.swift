/// One line of `/proc/<pid>/stat`: the parent and the CPU time, in clock ticks, of the process itself
/// (`utime`, `stime`) and of its children that ended and were waited for (`cutime`, `cstime`).
public struct ProcessTimes: Sendable, Equatable {
    public let pid: Int
    public let parent: Int
    public let ownTicks: Int
    public let reapedChildrenTicks: Int

    public init(pid: Int, parent: Int, ownTicks: Int, reapedChildrenTicks: Int) {
        self.pid = pid
        self.parent = parent
        self.ownTicks = ownTicks
        self.reapedChildrenTicks = reapedChildrenTicks
    }

    /// Nil for a line that is not a stat line. The command name is in parentheses and may hold spaces and
    /// parentheses itself, so the fields are counted from the last `)`.
    public init?(statLine: String) {
        guard let open = statLine.firstIndex(of: "("), let close = statLine.lastIndex(of: ")"),
            let pid = Int(statLine[..<open].filter { $0 != " " })
        else { return nil }
        // Fields 3 (state) onwards: ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        guard fields.count >= 15, let parent = Int(fields[1]), let utime = Int(fields[11]),
            let stime = Int(fields[12]), let cutime = Int(fields[13]), let cstime = Int(fields[14])
        else { return nil }
        self.init(pid: pid, parent: parent, ownTicks: utime + stime, reapedChildrenTicks: cutime + cstime)
    }

    /// A server's whole CPU time: its own, its children's that ended (PostgreSQL's backends that closed),
    /// and its live children's (`stats` holds every process; those whose parent is `root` count).
    public static func treeTicks(root: Int, in stats: [ProcessTimes]) -> Int? {
        guard let server = stats.first(where: { $0.pid == root }) else { return nil }
        return stats.filter { $0.parent == root }.reduce(server.ownTicks + server.reapedChildrenTicks) {
            $0 + $1.ownTicks
        }
    }
}

/// A thread's context switches, from its `/proc/<pid>/task/<tid>/status`: `voluntary_ctxt_switches` (it
/// blocked: a wait, a lock, I/O) and `nonvoluntary_ctxt_switches` (the scheduler took its core). A process's
/// are its threads' added together (the process's own `status` counts only its first thread).
public struct ContextSwitches: Sendable, Equatable {
    public var voluntary = 0
    public var nonvoluntary = 0

    public init(voluntary: Int = 0, nonvoluntary: Int = 0) {
        self.voluntary = voluntary
        self.nonvoluntary = nonvoluntary
    }

    /// Nil for a text without both counters.
    public init?(status: String) {
        var voluntary: Int?
        var nonvoluntary: Int?
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            guard fields.count == 2 else { continue }
            if fields[0] == "voluntary_ctxt_switches" { voluntary = Int(fields[1]) }
            if fields[0] == "nonvoluntary_ctxt_switches" { nonvoluntary = Int(fields[1]) }
        }
        guard let voluntary, let nonvoluntary else { return nil }
        self.init(voluntary: voluntary, nonvoluntary: nonvoluntary)
    }

    public var total: Int { voluntary + nonvoluntary }

    public static func + (lhs: ContextSwitches, rhs: ContextSwitches) -> ContextSwitches {
        ContextSwitches(
            voluntary: lhs.voluntary + rhs.voluntary, nonvoluntary: lhs.nonvoluntary + rhs.nonvoluntary)
    }

    /// The switches between two readings; never below zero (a process that ended between them, a PostgreSQL
    /// backend, takes its counts with it).
    public static func - (lhs: ContextSwitches, rhs: ContextSwitches) -> ContextSwitches {
        ContextSwitches(
            voluntary: max(0, lhs.voluntary - rhs.voluntary),
            nonvoluntary: max(0, lhs.nonvoluntary - rhs.nonvoluntary))
    }
}

/// The sockets listening on a TCP port, from `/proc/net/tcp` and `/proc/net/tcp6`: each line's local
/// address ends `:<port in hex>`, state `0A` is LISTEN, and the tenth field is the socket's inode, which
/// `/proc/<pid>/fd` links name as `socket:[inode]`.
public enum ListeningSockets {
    /// Of the processes holding a server's listening socket, the server: the one whose parent holds none of
    /// it. A child holds its parent's socket for a moment after a fork (a PostgreSQL backend starting), and
    /// neither the first nor the lowest pid tells them apart once pids wrap around.
    public static func server(among holders: [ProcessTimes]) -> Int? {
        let pids = Set(holders.map(\.pid))
        return holders.filter { !pids.contains($0.parent) }.map(\.pid).min()
    }

    public static func inodes(listeningOn port: Int, inTable table: String) -> Set<Int> {
        let suffix = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        var inodes = Set<Int>()
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count >= 10, fields[1].hasSuffix(suffix), fields[3] == "0A",
                let inode = Int(fields[9])
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
