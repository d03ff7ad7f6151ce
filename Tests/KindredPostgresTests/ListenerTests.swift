@testable import KindredPostgres
import KindredTestSupport
import Testing

extension DatabaseTests {
    @Suite struct Listener {
        /// A listener on `channel` (through `configuration`, the private cluster's by default), what it has
        /// delivered so far, and the task collecting it.
        static func listen(on channel: String, configuration: PostgresConfiguration? = nil) throws -> (
            PostgresListener, Locked<[PostgresNotification]>, Task<Void, Never>
        ) {
            let configuration =
                try configuration ?? PostgresConfiguration(url: PrivateCluster.current.url, poolSize: 1)
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
            #expect(received.value.last == .notifications(channel: channel, payloads: ["hello"]))

            try await PrivateCluster.current.restart()
            try await eventually("received \(received.value)") { received.value.count == 3 }
            #expect(received.value.last == .listening)
            try await eventually("received \(received.value)") { pool.isReachable }
            try await pool.query("SELECT pg_notify(\(channel), \("again"))")
            try await eventually("received \(received.value)") { received.value.count == 4 }
            #expect(received.value.last == .notifications(channel: channel, payloads: ["again"]))

            await listener.close()
            await reader.value
            await pool.close()
        }

        @Test func theListenersOfAProcessShareOneConnectionEachHearingItsOwnChannels() async throws {
            // An application name of its own gives this test its own shared connection: other tests' listeners
            // share the cluster's other one.
            let configuration = try PostgresConfiguration(
                url: PrivateCluster.current.url + "&application_name=kindred_hub_test", poolSize: 1)
            let pool = try TestDatabase.makePool(size: 1)
            func listeningBackends() async throws -> Int64 {
                try await pool.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'kindred_hub_test'"
                )[0].decode(Int64.self)
            }
            let (first, firstReceived, firstReader) = try Self.listen(
                on: "kindred_hub_a", configuration: configuration)
            try await eventually("first \(firstReceived.value)") { firstReceived.value == [.listening] }
            // A listener that joins a connection already listening is told once its own channel is listened to.
            let (second, secondReceived, secondReader) = try Self.listen(
                on: "kindred_hub_b", configuration: configuration)
            try await eventually("second \(secondReceived.value)") { secondReceived.value == [.listening] }
            #expect(try await listeningBackends() == 1)

            try await pool.query(
                "SELECT pg_notify('kindred_hub_a', 'one'), pg_notify('kindred_hub_b', 'two')")
            try await eventually("first \(firstReceived.value)") { firstReceived.value.count == 2 }
            try await eventually("second \(secondReceived.value)") { secondReceived.value.count == 2 }
            #expect(firstReceived.value.last == .notifications(channel: "kindred_hub_a", payloads: ["one"]))
            #expect(secondReceived.value.last == .notifications(channel: "kindred_hub_b", payloads: ["two"]))

            // One listener closing leaves the other listening; the last one closes the connection.
            await first.close()
            await firstReader.value
            try await pool.query("SELECT pg_notify('kindred_hub_b', 'three')")
            try await eventually("second \(secondReceived.value)") { secondReceived.value.count == 3 }
            #expect(
                secondReceived.value.last == .notifications(channel: "kindred_hub_b", payloads: ["three"]))
            #expect(firstReceived.value.count == 2)
            await second.close()
            await secondReader.value
            try await eventually("a listening backend is left") { try await listeningBackends() == 0 }
            await pool.close()
        }

        /// What one read brought, cut into deliveries where the channel changes, nothing reordered.
        @Test(
            arguments: [
                ([], []),
                ([("a", "1")], [("a", ["1"])]),
                ([("a", "1"), ("a", "2"), ("a", "1")], [("a", ["1", "2", "1"])]),
                (
                    [("a", "1"), ("b", "2"), ("a", "3"), ("a", "4")],
                    [("a", ["1"]), ("b", ["2"]), ("a", ["3", "4"])]
                ),
            ] as [([(String, String)], [(String, [String])])])
        func oneReadIsDeliveredARunOfOneChannelAtATime(
            received: [(String, String)], deliveries: [(String, [String])]
        ) {
            let runs = PostgresListenerHub.runs(received.map { (channel: $0.0, payload: $0.1) })
            #expect(runs.map(\.channel) == deliveries.map(\.0))
            #expect(runs.map(\.payloads) == deliveries.map(\.1))
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
