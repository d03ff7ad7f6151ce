public import Testing

/// Runs a suite (once, around all its tests) or a test inside a `PrivateCluster` of its own, destroyed
/// afterwards; the code under it reaches the cluster through `PrivateCluster.current`.
public struct PrivateClusterTrait: SuiteTrait, TestTrait, TestScoping {
    @TaskLocal static var current: PrivateCluster?

    let name: String

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cluster = try await PrivateCluster(name: name)
        do {
            try await Self.$current.withValue(cluster, operation: function)
        } catch {
            await cluster.destroy()
            throw error
        }
        await cluster.destroy()
    }
}

extension Trait where Self == PrivateClusterTrait {
    /// Runs the suite or test inside a PostgreSQL cluster of its own, in /tmp/kindred-`name`-<UUID>.
    public static func privateCluster(_ name: String) -> Self { Self(name: name) }
}

extension PrivateCluster {
    /// The cluster of the enclosing `.privateCluster` suite or test.
    public static var current: PrivateCluster {
        get throws {
            guard let cluster = PrivateClusterTrait.current else {
                throw TestFailure("no private cluster: run inside a suite or test marked .privateCluster")
            }
            return cluster
        }
    }
}
