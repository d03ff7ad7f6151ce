import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    @Suite struct Listener {
        /// A listener on `channel`, what it has delivered so far, and the task collecting it.
        static func listen(on channel: String) throws -> (
            PostgresListener, Locked<[PostgresNotification]>, Task<Void, Never>
        ) {
            let configuration = try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: 1)
            let listener = try PostgresListener(
                configuration: configuration, channels: [channel], logger: TestDatabase.logger)
            let received = Locked<[PostgresNotification]>([])
            let reader = Task {
                for await notification in listener.notifications {
                    received.withLock { $0.append(notification) }
                }
            }
            return (listener, received, reader)
        }

        @Test func notificationsArriveAndAReconnectIsAnnouncedAfterARestart() async throws {
            let channel = "kindred_test_events"
            let (listener, received, reader) = try Self.listen(on: channel)
            let pool = try TestDatabase.makePool(size: 1)
            try await eventually("received \(received.value)") { received.value == [.listening] }
            try await pool.query("SELECT pg_notify(\(channel), \("hello"))")
            try await eventually("received \(received.value)") { received.value.count == 2 }
            #expect(received.value.last == .notification(channel: channel, payload: "hello"))

            try await PrivateCluster.current.restart()
            try await eventually("received \(received.value)") { received.value.count == 3 }
            #expect(received.value.last == .listening)
            try await eventually("received \(received.value)") { pool.isReachable }
            try await pool.query("SELECT pg_notify(\(channel), \("again"))")
            try await eventually("received \(received.value)") { received.value.count == 4 }
            #expect(received.value.last == .notification(channel: channel, payload: "again"))

            await listener.close()
            await reader.value
            await pool.close()
        }

        @Test func aChannelThatIsNotAPlainIdentifierIsRefused() throws {
            let configuration = try PostgresConfiguration(url: "postgresql://localhost/db")
            #expect(throws: PostgresError.self) {
                try PostgresListener(
                    configuration: configuration, channels: ["x; DROP"], logger: TestDatabase.logger)
            }
        }
    }
}
