import Foundation
import LoadTestKit
import Testing

@Suite struct RunReportTests {
    @Test func theJSONHasExactlyTheIssuesShape() throws {
        var send = RPCTally()
        for value in [1_000, 2_000, 3_000] as [UInt64] { send.latencies.record(microseconds: value) }
        send.failures[.init(status: "UNAVAILABLE")] = 2
        send.failures[.init(status: "PERMISSION_DENIED", reason: "PARENTAL_CONTROLS_MESSAGING_RESTRICTED")] =
            1
        send.expectedRefusals = 1
        var realtime = DeliveryTally()
        realtime.delays.record(microseconds: 40_000)
        realtime.missed = 1
        var activity = DeliveryTally()
        activity.delays.record(microseconds: 10_000)
        var lateness = SendLateness()
        lateness.record(lag: .milliseconds(1))
        lateness.record(lag: .milliseconds(40))
        let generator = RunReport.Generator(
            rate: 400, deadline: .seconds(2), lateness: lateness, expired: 3, unsent: 4, stopped: 5)
        let report = RunReport(
            rpcs: ["kindred.social.v1.SocialService/SendMessage": send],
            realtime: ["messages": realtime, "profile_activity": activity],
            cpu: [
                "social": .init(
                    cpuSeconds: 1.5, calls: 6, peakRSSKilobytes: 2_048,
                    switches: ContextSwitches(voluntary: 9, nonvoluntary: 3))
            ],
            generator: generator, replicas: ["social": ["127.0.0.1:50053": 70, "127.0.0.2:50053": 68]],
            users: 200,
            duration: .milliseconds(30_500), interrupted: true,
            loadStartedAt: Date(timeIntervalSince1970: 1_000_000_000))
        let object = try #require(JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "rpcs", "realtime", "users", "duration_s", "realtime_streams", "cpu", "generator", "replicas",
                "interrupted", "timeline", "load_started_at",
            ])
        #expect(object["load_started_at"] as? String == "2001-09-09T01:46:40Z")
        // No surge, no "surge"; a closed loop's timeline is empty.
        #expect(object["timeline"] as? [Any] != nil)
        #expect(object["interrupted"] as? Bool == true)
        #expect(
            object["replicas"] as? [String: [String: Int]]
                == ["social": ["127.0.0.1:50053": 70, "127.0.0.2:50053": 68]])
        #expect(object["users"] as? Int == 200)
        #expect(object["duration_s"] as? Double == 30.5)
        let rpcs = try #require(object["rpcs"] as? [String: [String: Any]])
        let rpc = try #require(rpcs["kindred.social.v1.SocialService/SendMessage"])
        #expect(
            Set(rpc.keys) == [
                "count", "failed", "expected_refusals", "p50_ms", "p99_ms", "p999_ms", "max_ms", "failures",
            ])
        #expect(rpc["count"] as? Int == 6)
        #expect(rpc["failed"] as? Int == 3)
        // By status, then by reason: ErrorInfo's, or "none" when the failure carried none.
        let failures = try #require(rpc["failures"] as? [String: [String: Int]])
        #expect(
            failures == [
                "UNAVAILABLE": ["none": 2],
                "PERMISSION_DENIED": ["PARENTAL_CONTROLS_MESSAGING_RESTRICTED": 1],
            ])
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
        #expect(
            Set(social.keys) == [
                "cpu_s", "calls", "ms_per_call", "peak_rss_mb", "context_switches",
                "voluntary_context_switches",
                "context_switches_per_call",
            ])
        #expect(social["ms_per_call"] as? Double == 250.0)
        #expect(social["context_switches"] as? Int == 12)
        #expect(social["voluntary_context_switches"] as? Int == 9)
        #expect(social["context_switches_per_call"] as? Double == 2.0)
        #expect(social["peak_rss_mb"] as? Double == 2.0)
        let tool = try #require(object["generator"] as? [String: Any])
        #expect(
            Set(tool.keys) == [
                "rate", "deadline_ms", "sent", "late", "late_tolerance_ms", "expired", "unsent", "stopped",
                "lag_p50_ms", "lag_p99_ms", "lag_max_ms",
            ])
        #expect(tool["rate"] as? Double == 400)
        #expect(tool["deadline_ms"] as? Double == 2_000)
        #expect(tool["sent"] as? Int == 2)
        #expect(tool["late"] as? Int == 1)
        #expect(tool["late_tolerance_ms"] as? Double == 5)
        #expect(tool["expired"] as? Int == 3)
        #expect(tool["unsent"] as? Int == 4)
        #expect(tool["stopped"] as? Int == 5)
        #expect(tool["lag_max_ms"] as? Double == 40)
    }

    @Test func tallyMergeAddsFailuresByStatusAndReasonAndRefusals() {
        let stopped = RPCTally.Failure(status: "CANCELLED", reason: RPCTally.Failure.stopped)
        var one = RPCTally()
        one.failures[.init(status: "UNAVAILABLE")] = 1
        one.expectedRefusals = 2
        var two = RPCTally()
        two.failures = [.init(status: "UNAVAILABLE"): 3, .init(status: "INTERNAL"): 1, stopped: 2]
        two.latencies.record(microseconds: 5)
        one.merge(two)
        #expect(one.failures == [.init(status: "UNAVAILABLE"): 4, .init(status: "INTERNAL"): 1, stopped: 2])
        #expect(one.failuresByStatus == ["UNAVAILABLE": 4, "INTERNAL": 1, "CANCELLED": 2])
        #expect(one.expectedRefusals == 2)
        #expect(one.count == 8)
    }

    @Test func shedCallsReportHowFastTheyWereRefusedAndOnlyWhenThereWereAny() throws {
        #expect(RPCTally.Failure(status: "UNAVAILABLE", reason: "SERVER_OVERLOADED").isShed)
        #expect(RPCTally.Failure(status: "RESOURCE_EXHAUSTED").isShed)
        #expect(!RPCTally.Failure(status: "DEADLINE_EXCEEDED").isShed)
        var one = RPCTally()
        one.failures[.init(status: "UNAVAILABLE", reason: "SERVER_OVERLOADED")] = 1
        one.shedLatencies.record(microseconds: 2_000)
        var two = RPCTally()
        two.failures[.init(status: "UNAVAILABLE", reason: "SERVER_OVERLOADED")] = 1
        two.shedLatencies.record(microseconds: 9_000)
        one.merge(two)
        let answered = RPCTally()
        let report = RunReport(
            rpcs: ["shed": one, "answered": answered], realtime: [:], users: 1, duration: .seconds(1))
        let object = try #require(JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        let rpcs = try #require(object["rpcs"] as? [String: [String: Any]])
        // The slower of the two refusals, as its histogram bucket's highest value: within 1.6% above.
        let shedP99 = try #require(rpcs["shed"]?["shed_p99_ms"] as? Double)
        #expect((9.0...9.0 * 1.016).contains(shedP99))
        #expect(rpcs["answered"]?["shed_p99_ms"] == nil)
    }
}
