import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests {
    @Suite struct Streams {
        @Test func waitingStreamsWakeOnANewEvent() async throws {
            try await EventsFixture.with { fixture in
                let feed = try fixture.makeFeed()
                let watchers = (0..<20).map { _ in
                    Task { try await take(1, from: feed.events(after: 0)) }
                }
                try await eventually { feed.tail.newest != nil }
                try await fixture.append("user.registered")
                for watcher in watchers {
                    #expect(try await watcher.value.map(\.type) == ["user.registered"])
                }
                await feed.close()
            }
        }

        @Test func aStreamReadsALongBacklogInPagesThenFollowsNewEvents() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.pool.transaction { tx in
                    for index in 0..<600 {
                        try await fixture.outbox.append(
                            type: "backlog", payload: [UInt8(index % 256)], sealedWith: TestDataKeys.cipher,
                            in: tx)
                    }
                }
                let feed = try fixture.makeFeed()
                let reading = Task { try await take(601, from: feed.events(after: 0)) }
                try await eventually { feed.tail.newest == 600 }
                try await fixture.append("new")
                let events = try await reading.value
                #expect(events.map(\.cursor) == Array(1...601))
                #expect(events.last?.type == "new")
                await feed.close()
            }
        }

        @Test func aStreamResumesAfterAPostgresRestart() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.append("before.1")
                try await fixture.append("before.2")
                let feed = try fixture.makeFeed()
                var stream = feed.events(after: 0).makeAsyncIterator()
                #expect(try await stream.next()?.cursor == 1)
                #expect(try await stream.next()?.cursor == 2)

                try await fixture.restartPostgres()
                try await fixture.appendAfterRestart("after")
                let next = try await stream.next()
                #expect(next?.cursor == 3)
                #expect(next?.type == "after")
                await feed.close()
            }
        }

        @Test func aStreamReadingTheTableRetriesThroughAPostgresRestart() async throws {
            try await EventsFixture.with { fixture in
                for type in ["1", "2", "3"] { try await fixture.append(type) }
                let feed = try fixture.makeFeed()
                try await eventually { feed.tail.newest == 3 }
                try await fixture.restartPostgres()
                let events = try await take(3, from: feed.events(after: 0))
                #expect(events.map(\.cursor) == [1, 2, 3])
                await feed.close()
            }
        }

        @Test func cancellingTheReadingTaskEndsAWaitingStream() async throws {
            try await EventsFixture.with { fixture in
                let feed = try fixture.makeFeed()
                let reading = Task {
                    for try await _ in feed.events(after: 0) {}
                }
                try await eventually { feed.tail.newest != nil }
                reading.cancel()
                await #expect(throws: CancellationError.self) { try await reading.value }
                await feed.close()
            }
        }

        @Test func closingTheFeedEndsItsStreams() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.append("only")
                let feed = try fixture.makeFeed()
                let seen = Locked<[Int64]>([])
                let reading = Task {
                    for try await event in feed.events(after: 0) { seen.withLock { $0.append(event.cursor) } }
                }
                try await eventually { seen.value == [1] }
                await feed.close()
                try await reading.value
                #expect(seen.value == [1])
            }
        }
    }
}
