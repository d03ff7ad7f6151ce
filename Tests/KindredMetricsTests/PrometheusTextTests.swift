import KindredMetrics
import Testing

@Suite struct PrometheusTextTests {
    @Test func rendersFamiliesOnceWithEscapedLabels() {
        var text = PrometheusText()
        text.family("kindred_things_total", .counter, help: "Things.\nMore.")
        text.sample("kindred_things_total", ["kind": #"a "quoted" \ one"#], 3)
        text.family("kindred_things_total", .counter, help: "Again.")
        text.sample("kindred_ratio", [:], 0.25)
        #expect(
            String(decoding: text.bytes, as: UTF8.self) == """
                # HELP kindred_things_total Things.\\nMore.
                # TYPE kindred_things_total counter
                kindred_things_total{kind="a \\"quoted\\" \\\\ one"} 3
                kindred_ratio 0.25

                """)
    }

    /// Two consumers both add to `kindred_event_consumer_cursor`: the format wants one group per family.
    @Test func samplesOfOneFamilyStayTogether() {
        var text = PrometheusText()
        text.family("a", .gauge, help: "A.")
        text.sample("a", ["n": "1"], 1)
        text.family("b", .gauge, help: "B.")
        text.sample("b", [:], 2)
        text.family("a", .gauge, help: "A.")
        text.sample("a", ["n": "2"], 3)
        #expect(
            String(decoding: text.bytes, as: UTF8.self)
                == "# HELP a A.\n# TYPE a gauge\na{n=\"1\"} 1\na{n=\"2\"} 3\n# HELP b B.\n# TYPE b gauge\nb 2\n"
        )
    }

    @Test func aHistogramIsCumulativeWithSumAndCount() {
        let histogram = LatencyHistogram(bounds: [0.001, 0.01])
        histogram.record(nanoseconds: 500_000)  // 0.5 ms
        histogram.record(nanoseconds: 1_000_000)  // exactly 1 ms: le="0.001" includes it
        histogram.record(nanoseconds: 5_000_000)
        histogram.record(nanoseconds: 2_000_000_000)
        var text = PrometheusText()
        text.histogram("rpc_seconds", labels: [("method", "/a/B")], histogram)
        #expect(
            String(decoding: text.bytes, as: UTF8.self) == """
                rpc_seconds_bucket{method="/a/B",le="0.001"} 2
                rpc_seconds_bucket{method="/a/B",le="0.01"} 3
                rpc_seconds_bucket{method="/a/B",le="+Inf"} 4
                rpc_seconds_sum{method="/a/B"} 2.0065
                rpc_seconds_count{method="/a/B"} 4

                """)
    }

    @Test func countersAddFromManyTasks() async {
        let counters = AtomicCounters(count: 2)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<1_000 { counters.add(1) } } }
        }
        #expect(counters.load(1) == 8_000)
        #expect(counters.load(0) == 0)
    }

    @Test func aRegistryAsksEverySourceInOrder() async {
        let registry = MetricsRegistry()
        registry.register { $0.sample("first", [:], 1) }
        registry.register { $0.sample("second", [:], 2) }
        let text = await registry.render()
        #expect(String(decoding: text.bytes, as: UTF8.self) == "first 1\nsecond 2\n")
    }
}
