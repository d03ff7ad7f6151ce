import Foundation

/// A child process serving on a loopback port that it bound itself (port 0) and names in a file once it
/// accepts connections. A port picked first and bound by the child later can be picked by another test in
/// between; the child then fails to bind, and a readiness check that only asks whether something accepts on
/// the port passes on the other test's server: an implicit-TLS mail test once greeted a plain SMTP server so,
/// in CI (`wrong version number`).
public struct LoopbackServerProcess: Sendable {
    private let pid: Int32
    public let port: Int

    /// Python that a server script calls as `announce_port(port)` once it listens: writes the port, whole (by
    /// rename), to the file named by the script's last argument.
    public static let pythonAnnouncePort = """
        def announce_port(port):
            import os, sys
            with open(sys.argv[-1] + ".partial", "w") as file:
                file.write(str(port))
            os.rename(sys.argv[-1] + ".partial", sys.argv[-1])
        """

    /// Starts `arguments` with the path of its port file appended, output going to `log`, and waits until it
    /// names its port; throws with the log when it exits first or names none within 30 s.
    public init(_ arguments: [String], log: String) async throws {
        let portFile = log + ".port"
        let pid = try Subprocess.start(arguments + [portFile], output: log)
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        var port: Int?
        do {
            try await eventually("\(arguments[0]) names the port it listens on: \(logged())") {
                var status: Int32 = 0
                guard waitpid(pid, &status, WNOHANG) == 0 else {
                    throw TestFailure("\(arguments[0]) exited before it listened: \(logged())")
                }
                port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
                return port != nil
            }
        } catch {
            Subprocess.stop(pid)
            throw error
        }
        self.pid = pid
        self.port = port!
    }

    /// Sends SIGTERM and reaps the process.
    public func stop() { Subprocess.stop(pid) }
}

/// `KINDRED_TEST_PYTHON`, the venv's python that Tests/run makes with the interop requirements (aiosmtpd,
/// grpcio), or a failure naming the `peer` the test talks to and how to get that python.
public func testPython(peer: String) throws -> String {
    guard let python = ProcessInfo.processInfo.environment["KINDRED_TEST_PYTHON"], !python.isEmpty else {
        throw TestFailure(
            """
            KINDRED_TEST_PYTHON is not set: this test talks to \(peer). Run Tests/run, or \
            `/usr/bin/python3 -m venv .build-venv && .build-venv/bin/pip install -r Tests/Interop/requirements.txt` \
            and `export KINDRED_TEST_PYTHON=$PWD/.build-venv/bin/python`.
            """)
    }
    return python
}
