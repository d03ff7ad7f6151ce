import Foundation
import LoadTestKit

/// The CPU time and peak memory of the servers the run drives, when they run on this machine: each service
/// found by the port it listens on (its address in `--targets` on this host), PostgreSQL by `--postgres-port`
/// (the postmaster, with every backend as its child; its backends' time is also told apart by the service whose
/// role they connect as). Read from /proc before and after the run; a server not found (another host, or /proc
/// unreadable) is left out of the report.
struct ServerUsage: Sendable {
    /// Server name → pid.
    let servers: [String: Int]

    init(targets: ServiceTargets, postgresPort: Int?) {
        var ports = ServiceTargets.services.compactMap { name in
            Self.localPort(targets[name], onThisMachine: targets.onThisMachine).map { (name, $0) }
        }
        if let postgresPort { ports.append(("postgresql", postgresPort)) }
        let owners = Self.socketOwners()
        let table = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap {
            try? String(contentsOfFile: $0, encoding: .utf8)
        }.joined(separator: "\n")
        let stats = Self.processIDs().compactMap { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap(ProcessTimes.init)
        }
        var servers: [String: Int] = [:]
        for (name, port) in ports {
            let holders = Set(
                ListeningSockets.inodes(listeningOn: port, inTable: table).flatMap { owners[$0] ?? [] })
            let server = ListeningSockets.server(among: stats.filter { holders.contains($0.pid) })
            if let server { servers[name] = server }
        }
        servers["loadtest"] = Int(getpid())
        self.servers = servers
    }

    /// Each server's spending now, and PostgreSQL's live backends' by the service they work for
    /// (`PostgresBackends.costName(of:)`).
    func snapshot() -> [String: ServerSpending] {
        let stats = Self.processIDs().compactMap { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap(ProcessTimes.init)
        }
        var spent = servers.compactMapValues { root in
            ProcessTimes.treeTicks(root: root, in: stats).map { ticks in
                let tree = [root] + stats.filter { $0.parent == root }.map(\.pid)
                return ServerSpending(
                    ticks: ticks, switches: tree.map(Self.threadSwitches).reduce(ContextSwitches(), +))
            }
        }
        if let postmaster = servers["postgresql"] {
            spent.merge(Self.backendsByService(of: postmaster, in: stats)) { server, _ in server }
        }
        return spent
    }

    /// The live backends of `postmaster` that work for a service (their role's), added up per service. A
    /// backend that ends during the run takes its time out of its service's figure (into the postmaster's).
    private static func backendsByService(of postmaster: Int, in stats: [ProcessTimes]) -> [String:
        ServerSpending]
    {
        var spent: [String: ServerSpending] = [:]
        for backend in stats where backend.parent == postmaster {
            let commandLine =
                (try? String(contentsOfFile: "/proc/\(backend.pid)/cmdline", encoding: .utf8)) ?? ""
            guard
                let service = PostgresBackends.service(
                    commandLine: commandLine, among: ServiceTargets.services)
            else { continue }
            let own = ServerSpending(ticks: backend.ownTicks, switches: threadSwitches(backend.pid))
            spent[PostgresBackends.costName(of: service), default: ServerSpending()].processes[backend.pid] =
                own
        }
        return spent
    }

    /// The context switches of every thread of `pid` (`/proc/<pid>/task/*/status`).
    private static func threadSwitches(_ pid: Int) -> ContextSwitches {
        let directory = "/proc/\(pid)/task"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap {
            thread in
            (try? String(contentsOfFile: "\(directory)/\(thread)/status", encoding: .utf8)).flatMap {
                ContextSwitches(status: $0)
            }
        }.reduce(ContextSwitches(), +)
    }

    /// Peak resident memory (VmHWM) in kB: the process's own; for PostgreSQL, its largest process's.
    func peakRSS() -> [String: Int] {
        servers.mapValues { pid in
            let tree = [pid] + (servers["postgresql"] == pid ? Self.children(of: pid) : [])
            return tree.map(Self.highWaterMark).max() ?? 0
        }
    }

    /// Per server: CPU seconds and context switches between `before` and `after`, and per call of its service
    /// (PostgreSQL's backends for a service: per call of that service; PostgreSQL and the tool: per call of the
    /// whole run).
    func costs(before: [String: ServerSpending], after: [String: ServerSpending], rpcs: [String: RPCTally])
        -> [String:
        RunReport
        .ServerCost]
    {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let peaks = peakRSS()
        return after.reduce(into: [:]) { costs, entry in
            let service = PostgresBackends.service(ofCostName: entry.key) ?? entry.key
            // A service without a backend before the run has all of its backends' time counted.
            guard let start = before[entry.key] ?? (service != entry.key ? ServerSpending() : nil) else {
                return
            }
            let used = entry.value.since(start)
            let calls = rpcs.filter { $0.key.contains(".\(service).") || !Self.isService(service) }
                .reduce(0) { $0 + $1.value.count }
            costs[entry.key] = RunReport.ServerCost(
                cpuSeconds: Double(used.ticks) / ticksPerSecond, calls: calls,
                peakRSSKilobytes: peaks[entry.key] ?? 0, switches: used.switches)
        }
    }

    private static func isService(_ name: String) -> Bool { ServiceTargets.services.contains(name) }

    private static func localPort(_ address: String, onThisMachine: Bool) -> Int? {
        let host = address.split(separator: ":").dropLast().joined(separator: ":")
        let loopback = ["127.0.0.1", "localhost", "[::1]", "0.0.0.0"].contains(host)
        guard onThisMachine || loopback else { return nil }
        return address.split(separator: ":").last.flatMap { Int($0) }
    }

    private static func processIDs() -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int($0) }
    }

    private static func children(of parent: Int) -> [Int] {
        processIDs().filter { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap(ProcessTimes.init)?
                .parent == parent
        }
    }

    private static func highWaterMark(_ pid: Int) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }

    /// Socket inode → the pids holding it, from every readable /proc/<pid>/fd.
    private static func socketOwners() -> [Int: [Int]] {
        var owners: [Int: [Int]] = [:]
        for pid in processIDs() {
            let directory = "/proc/\(pid)/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                guard
                    let target = try? FileManager.default.destinationOfSymbolicLink(
                        atPath: "\(directory)/\(fd)"),
                    target.hasPrefix("socket:["), let inode = Int(target.dropFirst(8).dropLast())
                else { continue }
                owners[inode, default: []].append(pid)
            }
        }
        return owners
    }
}
