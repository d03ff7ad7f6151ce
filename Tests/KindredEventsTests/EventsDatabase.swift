import Foundation
import KindredEvents
import KindredPostgres
import Logging
import Synchronization
import Testing

/// Every test of this target runs in this suite, one at a time, against a PostgreSQL cluster of the suite's
/// own: the restart tests stop it, which must not break other targets' tests on the shared test cluster.
@Suite(.serialized, .privateCluster, .timeLimit(.minutes(1))) struct EventsTests {}

/// Starts a throwaway cluster (Tests/postgres-test-cluster, in a directory and on a port of its own) around
/// the suite and destroys it afterwards.
struct PrivateClusterTrait: SuiteTrait, TestScoping {
    @TaskLocal static var current: PrivateCluster?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cluster = try PrivateCluster()
        defer {
            try? cluster.run("destroy")
            try? FileManager.default.removeItem(atPath: cluster.urlFile)
        }
        try cluster.start()
        try await Self.$current.withValue(cluster, operation: function)
    }
}

extension Trait where Self == PrivateClusterTrait {
    static var privateCluster: Self { Self() }
}

/// Tests/postgres-test-cluster pointed at a scratch directory and a port the kernel just handed out.
struct PrivateCluster: Sendable {
    let command: String
    let urlFile: String

    init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = "/tmp/kindred-events-tests-\(getpid())"
        urlFile = directory + ".url"
        command =
            "KINDRED_TEST_PG_DIR=\(directory) KINDRED_TEST_PG_PORT=\(try Self.freePort()) "
            + repository.appendingPathComponent("Tests/postgres-test-cluster").path
    }

    /// Creates and starts the cluster, keeping the URL it prints.
    func start() throws {
        try run("start", output: urlFile)
    }

    /// Runs a verb of the script: `stop`, `restart`, `destroy`.
    // system() rather than Foundation's Process, which can leave the test waiting on a child that the
    // server inherits.
    func run(_ verb: String, output: String = "/dev/null") throws {
        let status = system("\(command) \(verb) > \(output)")
        guard status == 0 else { throw TestFailure("postgres-test-cluster \(verb) exited with \(status)") }
    }

    /// The superuser URL printed by `start`.
    func url() throws -> String {
        try String(contentsOfFile: urlFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
