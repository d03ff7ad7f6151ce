import Foundation
import LoadTestKit

/// The end of a run on the terminal: per RPC its count, failures by status, expected refusals and
/// percentiles; then the real-time deliveries.
struct ReportTable {
    let report: RunReport
    let tallies: [String: RPCTally]

    func print() {
        Swift.print(
            "\n" + "rpc".padding(toLength: 72, withPad: " ", startingAt: 0)
                + "    count  failed refused   p50 ms   p90 ms   p99 ms p99.9 ms   max ms")
        for (name, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            let h = tally.latencies
            Swift.print(
                name.padding(toLength: 72, withPad: " ", startingAt: 0)
                    + String(
                        format: " %8d %7d %7d %8.1f %8.1f %8.1f %8.1f %8.1f", tally.count, tally.failed,
                        tally.expectedRefusals, h.percentileMilliseconds(0.5), h.percentileMilliseconds(0.9),
                        h.percentileMilliseconds(0.99), h.percentileMilliseconds(0.999), h.maxMilliseconds))
            for (status, count) in tally.failuresByStatus.sorted(by: { $0.key < $1.key }) {
                Swift.print("    failed \(status): \(count)")
            }
        }
        let live = report.realtime
        Swift.print(
            String(
                format: "\nreal-time deliveries %d  missed %d  p50 %.1f ms  p99 %.1f ms  max %.1f ms\n"
                    + "users %d  duration %.1f s", live.deliveries, live.missed, live.p50Ms, live.p99Ms,
                live.maxMs,
                report.users, report.durationS))
    }
}
