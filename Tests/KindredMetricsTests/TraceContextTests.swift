import KindredMetrics
import Testing

@Suite struct TraceContextTests {
    static let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func parsesAndRendersTheSpecExample() throws {
        let trace = try #require(TraceContext(traceparent: Self.valid))
        #expect(trace.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(trace.spanIDText == "00f067aa0ba902b7")
        #expect(trace.flags == 1)
        #expect(trace.traceparent == Self.valid)
    }

    @Test(arguments: [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",  // short
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // version 00 has nothing after
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // version ff is invalid
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // all-zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // all-zero span id
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // wrong separator
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",  // not hex
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",  // a later version needs a dash after
    ])
    func refusesMalformedValues(_ value: String) {
        #expect(TraceContext(traceparent: value) == nil)
    }

    @Test func acceptsALaterVersionWithMoreFields() throws {
        let trace = try #require(TraceContext(traceparent: "cc" + Self.valid.dropFirst(2) + "-what-comes"))
        #expect(trace.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
    }

    @Test func aChildKeepsTheTraceWithANewSpan() throws {
        let parent = try #require(TraceContext(traceparent: Self.valid))
        let child = parent.child()
        #expect(child.traceID == parent.traceID)
        #expect(child.flags == parent.flags)
        #expect(child.spanID != parent.spanID)
        #expect(TraceContext(traceparent: child.traceparent) == child)
    }

    @Test func newTracesDiffer() {
        let traces = (0..<1_000).map { _ in TraceContext.start().traceID }
        #expect(Set(traces).count == traces.count)
        #expect(traces.allSatisfy { $0.count == 32 })
    }

    @Test func theTaskLocalReachesChildTasksAndLogMetadata() async throws {
        let trace = try #require(TraceContext(traceparent: Self.valid))
        #expect(TraceContext.logMetadata.get().isEmpty)
        let seen = await TraceContext.$current.withValue(trace) {
            await Task { (TraceContext.current, TraceContext.logMetadata.get()) }.value
        }
        #expect(seen.0 == trace)
        #expect(seen.1["trace_id"] == .string("4bf92f3577b34da6a3ce929d0e0e4736"))
        #expect(seen.1["span_id"] == .string("00f067aa0ba902b7"))
        #expect(TraceContext.current == nil)
    }
}
