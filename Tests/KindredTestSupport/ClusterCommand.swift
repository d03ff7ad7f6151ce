import Foundation

/// A command that takes Tests/postgres-test-cluster's verbs (`start`, `stop`, `restart`, `url`, `destroy`),
/// run through the shell.
struct ClusterCommand: Sendable {
    /// Shell words: environment assignments, the program, any arguments before the verb.
    let command: String

    /// Tests/postgres-test-cluster in this checkout, run with `environment`.
    static func script(environment: KeyValuePairs<String, String>) -> ClusterCommand {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let script = repository.appendingPathComponent("Tests/postgres-test-cluster").path
        let assignments = environment.map { "\($0.key)=\(shellQuoted($0.value)) " }.joined()
        return ClusterCommand(command: assignments + shellQuoted(script))
    }

    /// Runs `verb` to completion; returns what it printed on standard output, trimmed. What it said on
    /// standard error is kept only for the failure it throws.
    @discardableResult
    func run(_ verb: String) async throws -> String {
        // A verb takes seconds (initdb, a server starting). Waited for on a thread of Swift's cooperative
        // pool, which has one thread per core, two of them stalled every other test of the process: an RPC
        // test's 2 s deadline passed while two suites created their clusters.
        try await onItsOwnThread { try runWaiting(verb) }
    }

    private func runWaiting(_ verb: String) throws -> String {
        let scratch = try temporaryDirectory("kindred-cluster-\(verb)")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // system() rather than Foundation's Process: Process reaps its child through a run loop these tests
        // never run, and a test hung on a zombie; the shell is waited for alone, not the server it leaves
        // running.
        let status = system("\(command) \(verb) >\(scratch)/out 2>\(scratch)/err")
        guard status == 0 else {
            throw TestFailure(
                "`\(command) \(verb)` failed (wait status \(status)): \(Self.read(scratch + "/err"))")
        }
        return Self.read(scratch + "/out")
    }

    private static func read(_ path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
