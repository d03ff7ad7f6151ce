import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    /// A transaction's announcements (`announceAfterCommit`) reach listeners once it committed, and never when it
    /// rolled back: the writing transaction itself notifies nobody, so its commit never waits on the notify lock.
    @Suite struct Announcements {
        @Test func aCommittedTransactionsRecipientsAreAnnouncedAndARolledBackOnesAreNot() async throws {
            let channel = "kindred_test_announcements"
            let (listener, received, reader) = try Listener.listen(on: channel)
            let pool = try TestDatabase.makePool(size: 1)
            try await eventually("received \(received.value)") { received.value == [.listening] }

            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await pool.transaction { tx in
                    tx.announceAfterCommit(["rolled-back"], on: channel)
                    throw Refused()
                }
            }
            try await pool.transaction { tx in
                try await tx.query("SELECT 1")
                tx.announceAfterCommit(["ann", "bob"], on: channel)
                tx.announceAfterCommit(["ann"], on: channel)
            }
            let payloads = {
                received.value.flatMap { notification -> [String] in
                    guard case .notifications(channel, let payloads) = notification else { return [] }
                    return payloads
                }
            }
            try await eventually("received \(received.value)") { payloads().count == 2 }
            await pool.flushAnnouncements()
            // Each recipient once, the rolled-back transaction's never.
            #expect(payloads().sorted() == ["ann", "bob"])

            await listener.close()
            await reader.value
            await pool.close()
        }
    }
}

extension DatabaseTests {
    /// Every connection keeps one plan per prepared statement and the configured statement timeout.
    @Suite struct SessionSettings {
        @Test func aPoolsConnectionsUseGenericPlansAndTheStatementTimeout() async throws {
            let pool = try TestDatabase.makePool(size: 1)
            let plans = try await pool.query("SHOW plan_cache_mode")[0].decode(String.self)
            let timeout = try await pool.query("SHOW statement_timeout")[0].decode(String.self)
            #expect(plans == "force_generic_plan")
            #expect(timeout == "30s")
            await pool.close()
        }
    }
}
