import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests.Consumer {
    @Test func eventsArrivingDuringACommitAreHandledTogetherInOneTransaction() async throws {
        try await withConsumerFixture { fixture, feed in
            for index in 1...20 { try await fixture.append("\(index)") }
            let reads = Locked(0)
            let transactions = Locked<[Int64: Int64]>([:])
            let consumer = EventConsumer(
                source: "producer", schema: fixture.schema, pool: fixture.pool, logger: EventsFixture.logger,
                fetch: { CountingStream(events: feed.events(after: $0), reads: reads) },
                handle: { event, tx in
                    // The first event's transaction stays open until the stream was asked for a 21st
                    // event: by then every event not in its batch waits in the read-ahead.
                    if event.cursor == 1 { try await eventually { reads.value > 20 } }
                    let id = try await tx.query("SELECT txid_current()")[0].decode(Int64.self, column: 0)
                    transactions.withLock { $0[event.cursor] = id }
                })
            let running = Task { await consumer.run() }
            try await eventually { try await storedCursor(fixture) == 20 }
            running.cancel()
            await running.value
            // The first batch (event 1, perhaps with some read before the consumer woke), then the rest.
            #expect(transactions.value.count == 20)
            #expect(Set(transactions.value.values).count <= 2)
        }
    }

    @Test func anEventThatAlwaysFailsLetsTheEventsBeforeItInItsBatchCommit() async throws {
        try await withConsumerFixture { fixture, feed in
            for index in 1...5 { try await fixture.append("\(index)") }
            let delivered = Locked<[Int64]>([])
            let consumer = makeConsumer(fixture, feed: feed, delivered: delivered) { $0.cursor == 3 }
            let running = Task { await consumer.run() }
            try await eventually {
                try await storedCursor(fixture) == 2 && delivered.value.filter { $0 == 3 }.count >= 3
            }
            running.cancel()
            await running.value
            #expect(try await handled(fixture) == [1, 2])
            #expect(try await storedCursor(fixture) == 2)
        }
    }
}

/// An event stream that counts how often it was asked for an event (a 21st ask means 20 were delivered).
struct CountingStream: AsyncSequence, Sendable {
    let events: EventStream
    let reads: Locked<Int>

    func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), reads: reads)
    }

    struct Iterator: AsyncIteratorProtocol {
        var events: EventStream.AsyncIterator
        let reads: Locked<Int>

        mutating func next() async throws -> OutboxEvent? {
            reads.withLock { $0 += 1 }
            return try await events.next()
        }
    }
}
