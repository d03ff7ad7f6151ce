import Glibc
import KindredTestSupport
import Testing

@Suite struct LoopbackTests {
    @Test func nothingAcceptsConnectionsOnAFreePort() throws {
        let port = try freePort()
        #expect((20_000..<32_768).contains(port), "below the kernel's ephemeral range")
        #expect(!Loopback.accepts(port))
        #expect(throws: TestFailure.self) { try Loopback.connect(port: port) }
    }

    @Test func aListeningSocketAcceptsConnectionsAndABoundOneDoesNot() throws {
        let listening = try Loopback.bind(listening: 4)
        defer { close(listening.socket) }
        let bound = try Loopback.bind()
        defer { close(bound.socket) }
        #expect(Loopback.accepts(listening.port))
        #expect(!Loopback.accepts(bound.port))
        #expect(listening.port != bound.port)
    }
}
