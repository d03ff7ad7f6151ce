import Foundation
import LoadTestKit

/// The end of a run on the terminal: per RPC its count, failures by status, expected refusals and
/// percentiles; then the real-time deliveries, all together and per kind of stream, and each server's CPU; with
/// `--surge`, the run second by second and how the surge was served.
struct ReportTable {
    let report: RunReport
    let tallies: [String: RPCTally]

    func print() {
        Swift.print(
            "\n" + "rpc".padding(toLength: 84, withPad: " ", startingAt: 0)
                + "    count  failed refused   p50 ms   p90 ms   p99 ms p99.9 ms   max ms")
        for (name, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            let h = tally.latencies
            Swift.print(
                name.padding(toLength: 84, withPad: " ", startingAt: 0)
                    + String(
                        format: " %8d %7d %7d %8.1f %8.1f %8.1f %8.1f %8.1f", tally.count, tally.failed,
                        tally.expectedRefusals, h.percentileMilliseconds(0.5), h.percentileMilliseconds(0.9),
                        h.percentileMilliseconds(0.99), h.percentileMilliseconds(0.999), h.maxMilliseconds))
            for (failure, count) in tally.failures.sorted(by: { $0.key < $1.key }) {
                Swift.print("    failed \(failure.status) \(failure.reason): \(count)")
            }
            let shed = tally.shedLatencies
            if shed.count > 0 {
                Swift.print(
                    String(
                        format:
                            "    shed calls refused after p50 %.1f ms, p99 %.1f ms, max %.1f ms (from the send)",
                        shed.percentileMilliseconds(0.5), shed.percentileMilliseconds(0.99),
                        shed.maxMilliseconds))
            }
        }
        for (name, live) in [("all streams", report.realtime)]
            + report.realtimeStreams.sorted(by: { $0.key < $1.key })
        {
            Swift.print(
                "real-time \(name): "
                    + String(
                        format: "deliveries %d  missed %d  p50 %.1f ms  p99 %.1f ms  max %.1f ms",
                        live.deliveries,
                        live.missed, live.p50Ms, live.p99Ms, live.maxMs))
        }
        for (name, cost) in report.cpu.sorted(by: { $0.key < $1.key }) {
            // PostgreSQL's backends for one service are part of PostgreSQL, whose peak is the figure.
            let peak = cost.peakRssMb > 0 ? String(format: ", peak RSS %.0f MB", cost.peakRssMb) : ""
            Swift.print(
                "cpu \(name): "
                    + String(
                        format: "%.1f s, %.0f µs a call, %.2f context switches a call (%d calls)",
                        cost.cpuS, cost.msPerCall * 1_000, cost.contextSwitchesPerCall, cost.calls) + peak)
        }
        for (service, replicas) in report.replicas.sorted(by: { $0.key < $1.key }) {
            let counts = replicas.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            Swift.print("calls per replica \(service): " + counts.joined(separator: ", "))
        }
        let generator = report.generator
        Swift.print(
            String(
                format:
                    "generator: rate %.0f/s, deadline %.0f ms; sent %d, late %d (lag p99 %.1f ms, max %.1f ms), "
                    + "expired unsent %d, not reached %d, cut off by the hard stop %d",
                generator.rate, generator.deadlineMs, generator.sent, generator.late, generator.lagP99Ms,
                generator.lagMaxMs, generator.expired, generator.unsent, generator.stopped))
        if let surge = report.surge { printSurge(surge) }
        Swift.print(
            String(format: "users %d  duration %.1f s", report.users, report.durationS)
                + (report.loadStartedAt.map { "  load from \($0)" } ?? ""))
    }

    /// A surge's run second by second, then its parts and when it was back within budget.
    private func printSurge(_ surge: RunReport.Surge) {
        Swift.print("\nsecond    calls answered     shed   failed   p50 ms   p99 ms")
        for second in report.timeline {
            Swift.print(
                String(
                    format: "%6d %8d %8d %8d %8d %8.1f %8.1f", second.second, second.calls, second.answered,
                    second.shed, second.failed, second.p50Ms, second.p99Ms))
        }
        for (name, part) in [("before", surge.before), ("during", surge.during), ("after", surge.after)] {
            Swift.print(
                "surge \(name): "
                    + String(
                        format: "%d s, %.0f answered/s, %d shed, %d failed, p99 %.1f ms, %d s over budget",
                        part.seconds, part.answeredPerS, part.shed, part.failed, part.p99Ms,
                        part.secondsOverBudget))
        }
        let recovered = surge.recoveredAfterS.map { "\($0) s after it" } ?? "not before the run ended"
        Swift.print(
            String(
                format: "surge %.0f/s from %.0f s for %.0f s: back within p99 %.0f ms (%d s in a row) ",
                surge.rate, surge.fromS, surge.lengthS, surge.budgetMs, surge.settleS) + recovered)
    }
}
