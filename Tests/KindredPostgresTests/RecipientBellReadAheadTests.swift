import KindredTestSupport
import Testing

@testable import KindredPostgres

extension DatabaseTests {
    /// `RecipientBell`'s reads: a ring reads every recipient it rings in one statement, at the cursor most of each
    /// one's streams stand at, and those streams share it; a stream elsewhere reads for itself. The rows live
    /// in memory (1, 2 and 3 for everyone); the pool only serves the bell's listener.
    @Suite struct RecipientBellReadAhead {
        /// Every statement the bell asked for: each recipient's cursor.
        final class Inboxes: Sendable {
            let statements = Locked<[[String: Int64]]>([])

            func bell(on pool: PostgresPool) -> RecipientBell<Int64> {
                RecipientBell(
                    channel: "kindred_test_read_ahead", pool: pool, logger: TestDatabase.logger,
                    cursor: { $0 },
                    read: { [self] after, limit in
                        statements.withLock { $0.append(after) }
                        return after.mapValues { cursor in
                            Array([Int64(1), 2, 3].filter { $0 > cursor }.prefix(limit))
                        }
                    })
            }
        }

        @Test func aRingReadsItsRecipientsInOneStatementAndTheirStreamsShareIt() async throws {
            try await TestDatabase.withPool { pool in
                let inboxes = Inboxes()
                let bell = inboxes.bell(on: pool)
                let primer = try await Self.listening(bell)
                let ann = try #require(try bell.subscribe("ann"))
                let bobs = try (0..<3).map { _ in try #require(try bell.subscribe("bob")) }
                let cat = try #require(try bell.subscribe("cat"))
                let dan = try #require(try bell.subscribe("dan"))
                bell.note(ann, at: 0)
                // Two of bob's streams stand at 1, one behind at 0; dan's has not said where it stands.
                bell.note(bobs[0], at: 1)
                bell.note(bobs[1], at: 1)
                bell.note(bobs[2], at: 0)
                bell.note(cat, at: 2)

                bell.ring(["ann", "bob", "cat", "dan", "eve"])
                #expect(try await bell.rows(after: 0, since: 1, for: ann) == [1, 2, 3])
                #expect(try await bell.rows(after: 1, since: 1, for: bobs[0]) == [2, 3])
                #expect(try await bell.rows(after: 1, since: 1, for: bobs[1]) == [2, 3])
                #expect(try await bell.rows(after: 2, since: 1, for: cat) == [3])
                #expect(inboxes.statements.value == [["ann": 0, "bob": 1, "cat": 2]])

                // The stream behind, and the one whose place the bell did not know, read for themselves.
                #expect(try await bell.rows(after: 0, since: 1, for: bobs[2]) == [1, 2, 3])
                #expect(try await bell.rows(after: 1, since: 1, for: dan) == [2, 3])
                #expect(Array(inboxes.statements.value.dropFirst()) == [["bob": 0], ["dan": 1]])
                [primer, ann, cat, dan].forEach(bell.unsubscribe)
                bobs.forEach(bell.unsubscribe)
                await bell.close()
            }
        }

        @Test func aRingOfMoreRecipientsThanOneStatementReadsSplitsThem() async throws {
            try await TestDatabase.withPool { pool in
                let inboxes = Inboxes()
                let bell = inboxes.bell(on: pool)
                let primer = try await Self.listening(bell)
                let count = RecipientBell<Int64>.recipientsPerRead + 1
                let streams = try (0..<count).map { try #require(try bell.subscribe("r\($0)")) }
                streams.forEach { bell.note($0, at: 0) }
                bell.unsubscribe(primer)
                bell.ring(nil)
                for stream in streams {
                    #expect(try await bell.rows(after: 0, since: 1, for: stream) == [1, 2, 3])
                }
                #expect(inboxes.statements.value.map(\.count).sorted() == [1, count - 1])
                #expect(Set(inboxes.statements.value.flatMap(\.keys)).count == count)
                streams.forEach(bell.unsubscribe)
                await bell.close()
            }
        }

        /// A first stream's subscription, once the bell's listener is connected: connecting, it rings every
        /// recipient subscribed then, and the tests' own rings must be the only ones after.
        static func listening(_ bell: RecipientBell<Int64>) async throws -> RecipientBell<Int64>.Subscription
        {
            let primer = try #require(try bell.subscribe("primer"))
            try await eventually("the bell's listener rang its first ring") {
                bell.state.withLock { $0.recipients["primer"]?.rung } == 1
            }
            return primer
        }

        @Test func theCursorMostStreamsStandAtIsTheSmallestAmongEquals() {
            #expect(RecipientBell<Int64>.mostCommon([4, 7, 7, 4, 9]) == 4)
            #expect(RecipientBell<Int64>.mostCommon([4, 7, 7]) == 7)
            #expect(RecipientBell<Int64>.mostCommon([]) == nil)
        }
    }
}
