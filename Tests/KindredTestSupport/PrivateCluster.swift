import Foundation

/// A throwaway PostgreSQL cluster of one's own: Tests/postgres-test-cluster in a fresh directory, on a port
/// the kernel just handed out. For tests that stop or restart their server: test targets run in parallel, and
/// the shared test cluster (`SharedCluster`) must stay up for the others.
public struct PrivateCluster: Sendable {
    /// The superuser URL (over the unix socket) of the cluster's `kindred_test` database.
    public let url: String
    private let directory: String
    private let command: ClusterCommand

    /// Creates and starts a cluster in /tmp/kindred-`name`-<UUID>; `destroy()` removes it.
    public init(name: String) async throws {
        (url, directory, command) = try await Self.started(name: name, attempts: 3)
    }

    /// A started cluster. The port is free when picked but not reserved: until PostgreSQL binds it (after
    /// initdb, seconds on a loaded machine) any socket of the many loopback tests may be handed it, so a start
    /// that fails is tried again, in a fresh directory on a fresh port.
    private static func started(name: String, attempts: Int) async throws
        -> (url: String, directory: String, command: ClusterCommand)
    {
        for _ in 1..<attempts {
            if let cluster = try? await start(name: name) { return cluster }
        }
        return try await start(name: name)
    }

    /// Creates a cluster in a new directory on a free port and starts it; nothing stays when that fails.
    private static func start(name: String) async throws
        -> (url: String, directory: String, command: ClusterCommand)
    {
        let directory = try temporaryDirectory("kindred-\(name)")
        let command = ClusterCommand.script(environment: [
            "KINDRED_TEST_PG_DIR": directory + "/postgres", "KINDRED_TEST_PG_PORT": String(try freePort()),
        ])
        do {
            return (try await command.run("start"), directory, command)
        } catch {
            await remove(directory, command)
            throw error
        }
    }

    /// Starts the cluster again after `stop()`, on the same data and port: `url` still holds.
    public func start() async throws { try await command.run("start") }

    /// Shuts the server down fast (every connection breaks), keeping the data.
    public func stop() async throws { try await command.run("stop") }

    /// Stops the server and starts it again.
    public func restart() async throws { try await command.run("restart") }

    /// Stops the server and deletes every file of the cluster.
    public func destroy() async { await Self.remove(directory, command) }

    private static func remove(_ directory: String, _ command: ClusterCommand) async {
        _ = try? await command.run("destroy")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
