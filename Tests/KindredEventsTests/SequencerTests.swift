import FoundationEssentials
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests {
    @Suite struct Sequencer {
        @Test func aNumberingNotifiesItsNewestCursorOnceAndAnEmptyOneNotAtAll() async throws {
            try await EventsFixture.with { fixture in
                let listener = try PostgresListener(
                    configuration: fixture.pool.configuration, channels: [fixture.outbox.channel],
                    logger: EventsFixture.logger)
                let received = Locked<[PostgresNotification]>([])
                let reader = Task {
                    for await notification in listener.notifications {
                        received.withLock { $0.append(notification) }
                    }
                }
                try await eventually("received \(received.value)") { received.value == [.listening] }

                for type in ["a", "b", "c"] { try await fixture.append(type) }
                let first = try await fixture.sequence(limit: 100)
                #expect(first.count == 3)
                #expect(first.events?.map(\.cursor) == [1, 2, 3])
                #expect(first.events?.map(\.type) == ["a", "b", "c"])
                #expect(first.events?.map(\.payload) == [Array("a".utf8), Array("b".utf8), Array("c".utf8)])
                let empty = try await fixture.sequence(limit: 100)
                #expect(empty.count == 0)
                #expect(empty.events == [])
                for type in ["d", "e", "f"] { try await fixture.append(type) }
                // A batch smaller than the backlog announces its own newest cursor, not the table's.
                #expect(try await fixture.sequence(limit: 2).count == 2)
                #expect(try await fixture.sequence(limit: 2).count == 1)

                // Notifications arrive in commit order: one from the empty round would come before "5".
                let channel = fixture.outbox.channel
                // Commits close together may arrive in one read of the listener's socket, as one delivery.
                let payloads = {
                    received.value.flatMap { notification -> [String] in
                        guard case .notifications(channel, let payloads) = notification else { return [] }
                        return payloads
                    }
                }
                try await eventually("received \(received.value)") { payloads().count == 3 }
                #expect(received.value.first == .listening)
                #expect(payloads() == ["3", "5", "6"])
                await listener.close()
                await reader.value
            }
        }

        /// While events come, the next round follows `burstInterval` after one that numbered some, not the idle
        /// `pollInterval`: a busy feed's events wait for the short interval, not the long one.
        @Test func aRoundThatNumberedEventsIsFollowedAfterTheBurstIntervalNotThePollInterval() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.append("a")
                // Its first round, at start, numbers "a"; the next would come an hour later without the burst
                // interval. Five seconds leave the test time to append "b" before that round: if it came first,
                // finding nothing, the feed would go back to its hourly poll and the test would fail.
                let feed = try fixture.makeFeed(pollInterval: .seconds(3_600), burstInterval: .seconds(5))
                try await eventually("a numbered") { try await fixture.isNumbered("a") }
                try await fixture.append("b")
                try await eventually("b numbered by the round after a's") {
                    try await fixture.isNumbered("b")
                }
                await feed.close()
            }
        }

        @Test func aRoundWithoutThePollNumbersWhatWaitsAndOtherwiseNothing() async throws {
            try await EventsFixture.with { fixture in
                let feed = try fixture.makeFeed(pollInterval: .seconds(3_600))
                try await eventually { feed.tail.newest != nil }
                #expect(try await feed.sequenceAll(polling: false) == false)
                try await fixture.append("a")
                try await fixture.append("b")
                // The feed's own sequencer may number them first; either way they are numbered once, in order.
                _ = try await feed.sequenceAll(polling: false)
                let rows = try await fixture.pool.query(
                    "SELECT cursor, type FROM \(fixture.outbox.table) ORDER BY id"
                ).decode((Int64?, String).self)
                #expect(rows.map(\.0) == [1, 2])
                #expect(try await take(2, from: feed.events(after: 0)).map(\.type) == ["a", "b"])
                await feed.close()
            }
        }

        @Test func theSequencersEventsJoinTheTailOnlyRightAfterItsNewest() {
            let tail = EventTail(capacity: 4)
            let events = (1...8).map {
                OutboxEvent(cursor: Int64($0), type: "\($0)", payload: [], occurredAt: .now)
            }
            // Before the first refresh the tail knows no cursor: everything waits for the refresh.
            #expect(!tail.extend(with: Array(events[0...1])))
            #expect(tail.newest == nil)
            tail.restart(at: 2)
            // Another instance numbered 3 first: the refresh its notification starts brings 3 and 4.
            #expect(!tail.extend(with: [events[3]]))
            #expect(tail.newest == 2)
            #expect(tail.extend(with: Array(events[2...3])))
            #expect(tail.newest == 4)
            // A refresh that read after 2 while the sequencer added 3 and 4 adds only what is new.
            tail.append(Array(events[2...5]))
            #expect(tail.events(after: 2, limit: 10)?.map(\.cursor) == [3, 4, 5, 6])
            // Past capacity the oldest go, and a stream behind them reads the table.
            #expect(tail.extend(with: Array(events[6...7])))
            #expect(tail.events(after: 4, limit: 10)?.map(\.cursor) == [5, 6, 7, 8])
            #expect(tail.events(after: 3, limit: 10) == nil)
        }
    }
}
