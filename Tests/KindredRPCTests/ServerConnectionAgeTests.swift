import KindredTestSupport
import Synchronization
import Testing

@testable import KindredRPC

@Suite(.timeLimit(.minutes(1))) struct ServerConnectionAgeTests {
    /// A watch open past its connection's age and grace ends with the drain's UNAVAILABLE, which clients
    /// reopen; calls made meanwhile go to a new connection and succeed.
    @Test func aStreamPastTheAgeAndGraceEndsServerShuttingDownAndCallsMoveOn() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer {
                $0.maxConnectionAge = .seconds(1)
                $0.maxConnectionAgeGrace = .milliseconds(500)
            }
            let client = try RPCClient(target: server.target, configuration: .tests)
            let stream = client.serverStreaming(
                method: ClientTestService.method("Count"), request: ClientTestText("1000,50"),
                options: CallOptions(timeout: .seconds(30)), responseType: ClientTestText.self)
            var received = 0
            let error = await #expect(throws: RPCError.self) {
                for try await _ in stream {
                    received += 1
                    let reply: ClientTestText = try await client.unary(
                        method: ClientTestService.method("Echo"), request: ClientTestText("\(received)"))
                    #expect(reply.text == "\(received)")
                }
            }
            #expect(error == .serverShuttingDown)
            #expect(received > 0 && received < 1000)
            client.close()
            await server.stop()
        }
    }

    @Test func theAgeIsJitteredByTenPercent() {
        let ages = (0..<200).compactMap { _ in ConnectionState.retirement(after: .seconds(100), now: 0) }
        #expect(ages.count == 200)
        #expect(ages.allSatisfy { (90_000_000_000...110_000_000_000).contains($0) })
        #expect(Set(ages).count > 1)
        #expect(ConnectionState.retirement(after: nil, now: 0) == nil)
    }
}
