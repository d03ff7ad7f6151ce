import KindredAuth
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests {
    /// Payloads at rest (`EventOutbox+Sealing`): sealed by `append`, opened by the feed, and payloads from
    /// before sealing served as they are until `resealBatch` (keys rotate-data) seals them.
    @Suite struct OutboxSealing {
        @Test func aPayloadIsSealedAtRestAndServedOpened() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.append("Quillenbrook arrived")
                #expect(!(try await Self.stored(fixture)).contains("Quillenbrook"))
                let feed = try fixture.makeFeed()
                let events = try await take(1, from: feed.events(after: 0))
                #expect(events.map(\.payload) == [Array("Quillenbrook arrived".utf8)])
                await feed.close()
            }
        }

        @Test func aPayloadSealedForAnotherTypeDoesNotOpen() async throws {
            try await EventsFixture.with { fixture in
                let sealed = fixture.outbox.seal([8, 1], type: "coins.changed", with: TestDataKeys.cipher)
                #expect(throws: FieldCipherError.cannotOpen) {
                    try fixture.outbox.open(sealed, type: "badge.earned", with: TestDataKeys.cipher)
                }
            }
        }

        @Test func plaintextAndOldKeyPayloadsAreReadAndThenSealedByTheRotation() async throws {
            try await EventsFixture.with { fixture in
                try await fixture.pool.transaction { tx in
                    try await fixture.outbox.append(
                        type: "old.key", payload: Array("Marrowdene".utf8), sealedWith: TestDataKeys.old,
                        in: tx)
                }
                // A serialized proto (field 1, a string) appended before sealing began.
                let plain: [UInt8] = [10, 8] + Array("Pellbury".utf8)
                try await fixture.pool.query(
                    "INSERT INTO \(unsafeSQL: fixture.schema).event_outbox (type, payload) VALUES ('plain', \(plain))"
                )
                #expect(try await fixture.outbox.appended(on: fixture.pool).map(\.payload).contains(plain))

                let rotate = {
                    try await fixture.outbox.resealBatch(
                        after: nil, limit: 500, cipher: TestDataKeys.cipher, on: fixture.pool)
                }
                #expect(try await rotate().resealed == 2)
                #expect(try await rotate().resealed == 0)
                let dump = try await Self.stored(fixture)
                #expect(!dump.contains("Pellbury") && !dump.contains("Marrowdene"))
                let feed = try fixture.makeFeed()
                let events = try await take(2, from: feed.events(after: 0))
                #expect(events.map(\.payload) == [Array("Marrowdene".utf8), plain])
                await feed.close()
            }
        }

        /// The outbox's payloads as a dump shows them (printable bytes as they are).
        static func stored(_ fixture: EventsFixture) async throws -> String {
            try await fixture.pool.query(
                """
                SELECT coalesce(string_agg(encode(payload, 'escape'), ' '), '')
                FROM \(unsafeSQL: fixture.schema).event_outbox
                """
            )[0].decode(String.self)
        }
    }
}
