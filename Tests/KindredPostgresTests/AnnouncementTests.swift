import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    /// A transaction's announcements (`announceAfterCommit`) reach listeners once it committed, and never when it
    /// rolled back: the writing transaction itself notifies nobody, so its commit never waits on the notify lock.
    @Suite struct Announcements {
        @Test func aCommittedTransactionsRecipientsAreAnnouncedAndARolledBackOnesAreNot() async throws {
            let channel = "kindred_test_announcements"
            let configuration = try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: 1)
            let listener = try PostgresListener(
                configuration: configuration, channels: [channel], logger: TestDatabase.logger)
            let received = Locked<[PostgresNotification]>([])
            let reader = Task {
                for await notification in listener.notifications {
                    received.withLock { $0.append(notification) }
                }
            }
            let pool = try TestDatabase.makePool(size: 1)
            try await waitFor(received) { $0 == [.listening] }

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
            try await waitFor(received) { $0.count == 3 }
            await pool.flushAnnouncements()
            let payloads = received.value.compactMap { notification -> String? in
                guard case .notification(channel, let payload) = notification else { return nil }
                return payload
            }
            // Each recipient once, the rolled-back transaction's never.
            #expect(payloads.sorted() == ["ann", "bob"])

            await listener.close()
            await reader.value
            await pool.close()
        }

        /// Polls until `condition` holds (a listener's notifications arrive on its own thread), within 10 s.
        private func waitFor(
            _ received: Locked<[PostgresNotification]>, _ condition: ([PostgresNotification]) -> Bool
        ) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while !condition(received.value) {
                guard ContinuousClock.now < deadline else {
                    Issue.record("received only \(received.value)")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
