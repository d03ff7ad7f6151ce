import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    /// `RecipientBell` with `heads`: a row whose announcement never came reaches the waiting stream at the next
    /// look at the heads, and a stream already at its recipient's head is not woken by those looks. The rows
    /// live in memory and nobody notifies the bell's channel, so only the heads can wake the stream.
    @Suite struct RecipientBellHeads {
        /// Rows of one recipient kept in memory (each row is its own cursor), and what the bell asked of them.
        final class Inbox: Sendable {
            let rows = Locked<[Int64]>([])
            let reads = Counter()
            /// Every look at the heads, as it happens.
            let looks = StreamCollector<Int>()

            func bell(on pool: PostgresPool) -> RecipientBell<Int64> {
                RecipientBell(
                    channel: "kindred_test_unannounced", pool: pool, logger: TestDatabase.logger,
                    headPollInterval: .milliseconds(100), cursor: { $0 },
                    read: RecipientBell.oneAtATime { [self] _, after, limit in
                        reads.increment()
                        return Array(rows.value.filter { $0 > after }.prefix(limit))
                    },
                    heads: { [self] recipients in
                        looks.add(looks.received.count + 1)
                        return rows.value.last.map { head in [recipients[0]: head] } ?? [:]
                    })
            }
        }

        @Test func aRowNobodyAnnouncedReachesTheWaitingStreamAtTheNextLookAtTheHeads() async throws {
            try await TestDatabase.withPool { pool in
                let inbox = Inbox()
                let bell = inbox.bell(on: pool)
                let sent = StreamCollector<Int64>()
                let stream = Task {
                    try await bell.stream(to: "ann") {
                        (0, true)
                    } send: {
                        sent.add($0)
                    }
                }
                // The stream has a place once the bell looked at the heads for it: then a row commits, unannounced.
                _ = try await inbox.looks.first(1)
                inbox.rows.withLock { $0.append(1) }
                #expect(try await sent.first(1) == [1])
                inbox.rows.withLock { $0.append(contentsOf: [2, 3]) }
                #expect(try await sent.first(3) == [1, 2, 3])
                stream.cancel()
                await bell.close()
            }
        }

        @Test func aStreamAtItsRecipientsHeadIsNotWokenByTheLooks() async throws {
            try await TestDatabase.withPool { pool in
                let inbox = Inbox()
                inbox.rows.withLock { $0 = [1, 2] }
                let bell = inbox.bell(on: pool)
                let sent = StreamCollector<Int64>()
                let stream = Task {
                    try await bell.stream(to: "ann") {
                        (0, true)
                    } send: {
                        sent.add($0)
                    }
                }
                #expect(try await sent.first(2) == [1, 2])
                // The reads so far: the start, and the ring of the listener's connection.
                _ = try await inbox.looks.first(5)
                let reads = inbox.reads.value
                _ = try await inbox.looks.first(10)
                #expect(inbox.reads.value == reads)
                stream.cancel()
                await bell.close()
            }
        }
    }
}
