import KindredMetrics
import KindredRPC
import KindredRuntime
import Logging

#if canImport(Glibc)
import Glibc
#endif

// What a call's access line costs: formatting it and handing it to the log's writer thread, which writes it
// to a file. Two ways in the same run: the line written directly (`JSONLogHandler.write(_: AccessLine)`, what
// the server does), and the same fields through swift-log's metadata dictionary (what it did before, and what
// any other log handler gets), the reference. Per line: the logging thread's CPU (what an event loop pays),
// and the whole process's CPU (the writer thread's write(2) too). Build with
// `swift build -c release --product AccessLogBench`; the machine is shared, so compare the two rows of one run.

let linesPerBatch = 10_000
let batches = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 30
let rounds = 5
let path = "/tmp/kindred-access-log-bench-\(getpid()).log"
defer {
    unlink(path)
    unlink(path + ".1")
}
let writer = try LogLineWriter.rotatingFile(path: path, maxBytes: 64 << 20, keep: 1)
var handler = JSONLogHandler(label: "kindred-identity", level: .info, writer: writer)
handler.metadata["service"] = "identity"
let logger = Logger(label: "kindred-identity") { _ in handler }

func line(_ number: UInt64) -> AccessLine {
    AccessLine(
        level: .info, method: "/kindred.identity.v1.IdentityService/GetAgeRange", code: .ok, reason: nil,
        cause: nil, durationNanos: 183_000 &+ number % 1_000, peer: "ipv4:10.0.3.17:51234",
        requestID: .generated(prefix: "1x9k2c", loop: Int(number % 2), number: number),
        trace: TraceContext(traceHigh: number &* 31, traceLow: number &+ 1, spanID: number | 1, flags: 1))
}

func cpuNanos(_ clock: clockid_t) -> UInt64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Median over `rounds` of (logging thread ns per line, process ns per line).
func measure(_ write: (AccessLine) -> Void) -> (thread: Double, process: Double) {
    var threadCosts: [Double] = []
    var processCosts: [Double] = []
    var number: UInt64 = 0
    for _ in 0..<rounds {
        var threadTotal: UInt64 = 0
        let processStart = cpuNanos(CLOCK_PROCESS_CPUTIME_ID)
        for _ in 0..<batches {
            let lines = (0..<linesPerBatch).map { _ in
                number += 1
                return line(number)
            }
            let start = cpuNanos(CLOCK_THREAD_CPUTIME_ID)
            for accessLine in lines { write(accessLine) }
            threadTotal += cpuNanos(CLOCK_THREAD_CPUTIME_ID) - start
            // Not timed on this thread: the writer's share shows in the process's CPU.
            writer.flush()
        }
        let processTotal = cpuNanos(CLOCK_PROCESS_CPUTIME_ID) - processStart
        let count = Double(batches * linesPerBatch)
        threadCosts.append(Double(threadTotal) / count)
        // The lines' construction above is the process's too, but cheap and the same for both rows.
        processCosts.append(Double(processTotal) / count)
    }
    return (threadCosts.sorted()[rounds / 2], processCosts.sorted()[rounds / 2])
}

func show(_ label: String, _ cost: (thread: Double, process: Double)) {
    func µs(_ nanos: Double) -> String { String((nanos / 10).rounded() / 100) }
    print(
        "\(label) \(µs(cost.thread)) µs/line on the logging thread, \(µs(cost.process)) µs/line for the process"
    )
}

let sample = line(1)
var bytes = 0
handler.write(sample)
writer.flush()
var status = stat()
if stat(path, &status) == 0 { bytes = Int(status.st_size) }
print("access line: \(bytes) bytes; \(rounds) rounds of \(batches * linesPerBatch) lines, medians")
let direct = measure { handler.write($0) }
let generic = measure { logger.log(level: $0.level, "call", metadata: $0.metadata) }
show("direct (JSONLogHandler.write(AccessLine)):       ", direct)
show("reference (swift-log metadata, the old path):    ", generic)
