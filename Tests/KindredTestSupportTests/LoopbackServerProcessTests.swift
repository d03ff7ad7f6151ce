import Foundation
import KindredTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct LoopbackServerProcessTests {
    /// Debian's python: these tests need no package from the venv.
    let python = "/usr/bin/python3"

    @Test func aServerIsReachedOnThePortItNamed() async throws {
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
        let first = try await LoopbackServerProcess([python, "-c", script], log: directory + "/first.log")
        defer { first.stop() }
        let second = try await LoopbackServerProcess([python, "-c", script], log: directory + "/second.log")
        defer { second.stop() }
        #expect(first.port != second.port)
        #expect(Loopback.accepts(first.port))
        #expect(Loopback.accepts(second.port))
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

    @Test func freePortNeverHandsOutAPortTwice() throws {
        let ports = try (0..<200).map { _ in try freePort() }
        #expect(Set(ports).count == ports.count)
    }
}
