import KindredAuth
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests {
    @Suite struct Outbox {
        struct RolledBack: Error {}

        @Test func aRolledBackAppendIsNeverSeen() async throws {
            try await EventsFixture.with { fixture in
                await #expect(throws: RolledBack.self) {
                    try await fixture.pool.transaction { tx in
                        try await fixture.outbox.append(
                            type: "rolled.back", payload: [1], sealedWith: TestDataKeys.cipher, in: tx)
                        throw RolledBack()
                    }
                }
                try await fixture.append("first")
                try await fixture.append("second")
                let feed = try fixture.makeFeed()
                let events = try await take(2, from: feed.events(after: 0))
                #expect(events.map(\.type) == ["first", "second"])
                #expect(events.map(\.cursor) == [1, 2])
                await feed.close()
            }
        }

        @Test func committedAppendsAreDeliveredInOrderWithTheirPayloads() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.append("user.registered")
                try await fixture.pool.transaction { tx in
                    try await fixture.outbox.append(
                        type: "user.email_verified", payload: [0, 255], sealedWith: TestDataKeys.cipher,
                        in: tx)
                    try await fixture.outbox.append(
                        type: "user.came_of_age", payload: [], sealedWith: TestDataKeys.cipher, in: tx)
                }
                try await fixture.append("user.deleted")
                let feed = try fixture.makeFeed()
                let events = try await take(4, from: feed.events(after: 0))
                #expect(events.map(\.cursor) == [1, 2, 3, 4])
                #expect(
                    events.map(\.type) == [
                        "user.registered", "user.email_verified", "user.came_of_age", "user.deleted",
                    ])
                #expect(
                    events.map(\.payload) == [
                        Array("user.registered".utf8), [0, 255], [], Array("user.deleted".utf8),
                    ])
                #expect(events.allSatisfy { abs($0.occurredAt.timeIntervalSinceNow) < 60 })
                let later = try await take(2, from: feed.events(after: 2))
                #expect(later.map(\.cursor) == [3, 4])
                await feed.close()
            }
        }

        @Test func anEventCommittedAfterALaterOneIsDeliveredWithoutASkip() async throws {
            try await EventsFixture.with { fixture in
                let (appended, appendedSignal) = AsyncStream.makeStream(of: Void.self)
                let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
                // A appends first (the lower row id) and commits last.
                let slow = Task {
                    try await fixture.pool.transaction { tx in
                        try await fixture.outbox.append(
                            type: "a", payload: [], sealedWith: TestDataKeys.cipher, in: tx)
                        appendedSignal.yield()
                        for await _ in release { break }
                    }
                }
                for await _ in appended { break }
                try await fixture.append("b")
                let feed = try fixture.makeFeed()
                var stream = feed.events(after: 0).makeAsyncIterator()
                let first = try await stream.next()
                #expect(first?.type == "b")
                #expect(first?.cursor == 1)

                releaseSignal.yield()
                try await slow.value
                let second = try await stream.next()
                #expect(second?.type == "a")
                #expect(second?.cursor == 2)
                let fromFirst = try await take(1, from: feed.events(after: 1))
                #expect(fromFirst.map(\.type) == ["a"])
                await feed.close()
            }
        }

        @Test func concurrentSequencersNeverExposeAGapNorReorderAWritersEvents() async throws {
            try await EventsFixture.with { fixture in
                let instances = try [EventsFixture.makePool(size: 2), EventsFixture.makePool(size: 2)]
                let writing = Locked(true)
                let holes = Locked<[String]>([])
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for pool in instances {
                        group.addTask {
                            while writing.value {
                                // Small batches so the two instances interleave often.
                                _ = try await fixture.sequence(limit: 3, on: pool)
                            }
                        }
                    }
                    group.addTask {
                        // Whatever is visible must be the cursors 1...n: a reader never sees n while n-1 is missing.
                        while writing.value {
                            let row = try await fixture.pool.query(
                                "SELECT count(cursor), coalesce(max(cursor), 0) FROM \(fixture.outbox.table)")[
                                    0]
                            let (count, newest) = try row.decode((Int64, Int64).self)
                            if count != newest {
                                holes.withLock { $0.append("\(count) visible up to \(newest)") }
                            }
                        }
                    }
                    try await withThrowingTaskGroup(of: Void.self) { writers in
                        for writer in 0..<4 {
                            writers.addTask {
                                for index in 0..<40 {
                                    try await fixture.pool.transaction { tx in
                                        try await fixture.outbox.append(
                                            type: "w\(writer)", payload: [UInt8(index)],
                                            sealedWith: TestDataKeys.cipher, in: tx)
                                    }
                                }
                            }
                        }
                        try await writers.waitForAll()
                    }
                    writing.withLock { $0 = false }
                    try await group.waitForAll()
                }
                try await fixture.sequenceAll()
                for pool in instances { await pool.close() }

                #expect(holes.value.isEmpty)
                let rows = try await fixture.pool.query(
                    "SELECT cursor, type, payload FROM \(fixture.outbox.table) ORDER BY cursor"
                ).decode((Int64, String, [UInt8]).self)
                #expect(rows.map(\.0) == Array(1...160))
                for writer in 0..<4 {
                    let order = try rows.filter { $0.1 == "w\(writer)" }.map {
                        try fixture.outbox.open($0.2, type: $0.1, with: TestDataKeys.cipher)
                    }
                    #expect(order == (0..<40).map { [UInt8($0)] })
                }
            }
        }

        @Test func aSequencerWaitsWhileAnotherInstanceIsSequencing() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.append("a")
                try await fixture.append("b")
                let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
                let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
                let otherInstance = Task {
                    try await fixture.pool.transaction { tx in
                        try await tx.query("SELECT pg_advisory_xact_lock(\(fixture.outbox.lockKey))")
                        lockedSignal.yield()
                        for await _ in release { break }
                    }
                }
                for await _ in locked { break }
                let sequencing = Task { try await fixture.sequence(limit: 10).count }
                try await eventually {
                    try await !fixture.pool.query(
                        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    ).isEmpty
                }
                let numbered = try await fixture.pool.query(
                    "SELECT count(cursor) FROM \(fixture.outbox.table)")[0].decode(Int64.self, column: 0)
                #expect(numbered == 0)
                releaseSignal.yield()
                try await otherInstance.value
                #expect(try await sequencing.value == 2)
            }
        }

        @Test func pruningKeepsTheNewestEventAndTellsAStreamBehindItToResync() async throws {
            try await EventsFixture.with { fixture in
                for type in ["1", "2", "3", "4", "5"] { try await fixture.append(type) }
                try await fixture.sequenceAll()
                try await fixture.pool.query(
                    "UPDATE \(fixture.outbox.table) SET sequenced_at = now() - interval '40 days'")
                let pruned = try await fixture.outbox.prune(olderThan: .seconds(30 * 86_400), fixture.pool)
                #expect(pruned == 4)

                let feed = try fixture.makeFeed()
                await #expect(throws: EventsPruned(afterCursor: 2, oldestRetained: 5)) {
                    _ = try await take(1, from: feed.events(after: 2))
                }
                #expect(try await take(1, from: feed.events(after: 4)).map(\.cursor) == [5])
                #expect(try await take(1, from: feed.events(after: 0)).map(\.cursor) == [5])
                try await fixture.append("6")
                #expect(try await take(1, from: feed.events(after: 5)).map(\.type) == ["6"])
                await feed.close()
            }
        }
    }
}
