import Foundation

/// Child processes through posix_spawn; Foundation's Process is avoided, as elsewhere in the tests, because
/// it reaps children through a run loop these tests never run.
public enum Subprocess {
    /// Runs `arguments` (an absolute program path first) to completion, waiting on a thread of its own
    /// (`onItsOwnThread`); returns its exit status and output.
    public static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let output = "/tmp/kindred-subprocess-\(UUID().uuidString)"
        defer { unlink(output) }
        let pid = try start(arguments, output: output)
        let status = try await onItsOwnThread { wait(pid) }
        return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    /// Starts `arguments` with standard output and error going to the file `output`; returns the pid.
    public static func start(_ arguments: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The test process blocks or ignores some signals (for its own handling); the child must not
        // inherit that, or SIGTERM would not stop it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw TestFailure("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Sends SIGTERM to `pid` and reaps it.
    public static func stop(_ pid: Int32) {
        kill(pid, SIGTERM)
        _ = wait(pid)
    }

    /// Reaps `pid`; returns its exit status (128 + signal when killed).
    private static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
