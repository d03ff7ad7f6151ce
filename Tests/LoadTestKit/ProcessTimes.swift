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

/// The sockets listening on a TCP port, from `/proc/net/tcp` and `/proc/net/tcp6`: each line's local
/// address ends `:<port in hex>`, state `0A` is LISTEN, and the tenth field is the socket's inode, which
/// `/proc/<pid>/fd` links name as `socket:[inode]`.
public enum ListeningSockets {
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
