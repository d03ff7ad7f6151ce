import Foundation
import LoadTestKit
import Testing

@Suite struct RunReportTests {
    @Test func theJSONHasExactlyTheIssuesShape() throws {
        var send = RPCTally()
        for value in [1_000, 2_000, 3_000] as [UInt64] { send.latencies.record(microseconds: value) }
        send.failuresByStatus["unavailable"] = 2
        send.expectedRefusals = 1
        var realtime = DeliveryTally()
        realtime.delays.record(microseconds: 40_000)
        realtime.missed = 1
        var activity = DeliveryTally()
        activity.delays.record(microseconds: 10_000)
        let report = RunReport(
            rpcs: ["kindred.social.v1.SocialService/SendMessage": send],
            realtime: ["messages": realtime, "profile_activity": activity],
            cpu: ["social": .init(cpuSeconds: 1.5, calls: 5, peakRSSKilobytes: 2_048)], users: 200,
            duration: .milliseconds(30_500))
        let object = try #require(JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        #expect(Set(object.keys) == ["rpcs", "realtime", "users", "duration_s", "realtime_streams", "cpu"])
        #expect(object["users"] as? Int == 200)
        #expect(object["duration_s"] as? Double == 30.5)
        let rpcs = try #require(object["rpcs"] as? [String: [String: Any]])
        let rpc = try #require(rpcs["kindred.social.v1.SocialService/SendMessage"])
        #expect(
            Set(rpc.keys) == [
                "count", "failed", "expected_refusals", "p50_ms", "p99_ms", "p999_ms", "max_ms",
            ])
        #expect(rpc["count"] as? Int == 5)
        #expect(rpc["failed"] as? Int == 2)
        #expect(rpc["expected_refusals"] as? Int == 1)
        // The median, 2 ms, as its histogram bucket's highest value: within 1.6% above.
        let p50 = try #require(rpc["p50_ms"] as? Double)
        #expect((2.0...2.0 * 1.016).contains(p50))
        #expect(rpc["max_ms"] as? Double == 3.0)
        let live = try #require(object["realtime"] as? [String: Any])
        #expect(Set(live.keys) == ["deliveries", "missed", "p50_ms", "p99_ms", "max_ms"])
        // Every kind of stream together, and each apart.
        #expect(live["deliveries"] as? Int == 2)
        #expect(live["missed"] as? Int == 1)
        #expect(live["max_ms"] as? Double == 40.0)
        let streams = try #require(object["realtime_streams"] as? [String: [String: Any]])
        #expect(streams["profile_activity"]?["deliveries"] as? Int == 1)
        #expect(streams["profile_activity"]?["max_ms"] as? Double == 10.0)
        let social = try #require((object["cpu"] as? [String: [String: Any]])?["social"])
        #expect(Set(social.keys) == ["cpu_s", "calls", "ms_per_call", "peak_rss_mb"])
        #expect(social["ms_per_call"] as? Double == 300.0)
        #expect(social["peak_rss_mb"] as? Double == 2.0)
    }

    @Test func tallyMergeAddsFailuresByStatusAndRefusals() {
        var one = RPCTally()
        one.failuresByStatus["unavailable"] = 1
        one.expectedRefusals = 2
        var two = RPCTally()
        two.failuresByStatus = ["unavailable": 3, "internal": 1]
        two.latencies.record(microseconds: 5)
        one.merge(two)
        #expect(one.failuresByStatus == ["unavailable": 4, "internal": 1])
        #expect(one.expectedRefusals == 2)
        #expect(one.count == 6)
    }
}
