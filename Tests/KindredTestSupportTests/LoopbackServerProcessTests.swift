import Foundation
import KindredTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct LoopbackServerProcessTests {
    /// Debian's python: these tests need no package from the venv.
    let python = "/usr/bin/python3"

    @Test func aServerIsReachedOnThePortItNamedUntilItIsStopped() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = """
            import socket, time
            \(LoopbackServerProcess.pythonAnnouncePort)
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(4)
            announce_port(listener.getsockname()[1])
            time.sleep(60)
            """
        let server = try await LoopbackServerProcess([python, "-c", script], log: directory + "/server.log")
        #expect(Loopback.accepts(server.port))
        server.stop()
        #expect(!Loopback.accepts(server.port), "the server still listens after stop()")
    }

    @Test func aServerThatExitsBeforeListeningFailsWithWhatItSaid() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = await #expect(throws: TestFailure.self) {
            _ = try await LoopbackServerProcess(
                [python, "-c", "import sys; print('no certificate here'); sys.exit(3)"],
                log: directory + "/server.log")
        }
        #expect(error?.description.contains("exited before it listened: no certificate here") == true)
    }
}
