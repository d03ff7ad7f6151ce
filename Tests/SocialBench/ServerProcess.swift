import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The measured server, read from /proc: the CPU it has used and its peak resident memory.
struct ServerProcess {
    let pid: Int32

    /// User + system CPU so far, in microseconds.
    func cpuMicroseconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the parenthesized command name, which may itself hold spaces.
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        let ticks = Double(fields[11])! + Double(fields[12])!
        return ticks * 1_000_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmHWM, in MiB.
    func peakResidentMiB() throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }!
        return Double(line.split(separator: " ", omittingEmptySubsequences: true)[1])! / 1024
    }
}
