import KindredMetrics
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests {
    /// An event keeps the trace of the work that appended it, and its consumer handles it in that trace.
    @Suite struct Traces {
        /// Appends an event of `type` inside `trace`, or outside any trace when it is nil.
        func append(_ type: String, in trace: TraceContext?, _ fixture: EventsFixture) async throws {
            try await TraceContext.$current.withValue(trace) { try await fixture.append(type) }
        }

        @Test func theOutboxKeepsTheWritersTraceAndNullOutsideOne() async throws {
            try await EventsFixture.with { fixture in
                let writer = TraceContext.start()
                try await append("traced", in: writer, fixture)
                try await append("untraced", in: nil, fixture)
                let stored = try await fixture.pool.query(
                    "SELECT traceparent FROM \(fixture.outbox.table) ORDER BY id"
                ).decode(String?.self)
                #expect(stored == [writer.traceparent, nil])
                let feed = try fixture.makeFeed()
                let events = try await take(2, from: feed.events(after: 0))
                #expect(events.map(\.traceparent) == [writer.traceparent, ""])
                await feed.close()
            }
        }

        @Test func aConsumerHandlesEachEventInANewSpanOfTheTraceThatWroteIt() async throws {
            try await EventsFixture.with { fixture in
                let writer = TraceContext.start()
                try await append("traced", in: writer, fixture)
                try await append("untraced", in: nil, fixture)
                try await append("traced.again", in: writer, fixture)
                let feed = try fixture.makeFeed()
                let (handled, handling) = AsyncStream.makeStream(of: TraceContext?.self)
                let consumer = EventConsumer(
                    source: "producer", schema: fixture.schema, pool: fixture.pool,
                    logger: EventsFixture.logger,
                    fetch: { feed.events(after: $0) },
                    handle: { _, _ in handling.yield(TraceContext.current) })
                let running = Task { await consumer.run() }
                let traces = try await take(3, from: handled).map { try #require($0) }
                running.cancel()
                await running.value
                await feed.close()

                #expect(traces[0].traceID == writer.traceID && traces[2].traceID == writer.traceID)
                // Each handling is a span of its own, a child of the writer's.
                #expect(Set([writer.spanID, traces[0].spanID, traces[2].spanID]).count == 3)
                // An event written outside a trace is handled in a new one, not in its neighbours'.
                #expect(traces[1].traceID != writer.traceID)
            }
        }
    }
}
