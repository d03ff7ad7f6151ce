import Testing

@testable import KindredRPC

@Suite struct NameResolverTests {
    /// `lookUp` asserts it is not on an event loop, so a debug build traps if `getaddrinfo` ever runs on one;
    /// the caller here is on the test loop.
    @Test func theSystemResolverResolvesLocalhostOffTheLoop() async throws {
        let addresses = try await onClientTestLoop {
            #expect(EventLoop.current != nil)
            return try await SystemNameResolver().resolve(host: "localhost", port: 50051)
        }
        #expect(addresses.contains(ResolvedAddress(numericHost: "127.0.0.1", port: 50051)!))
        #expect(Set(addresses).count == addresses.count)
    }

    @Test func anUnknownNameIsUnavailable() async {
        let error = await #expect(throws: RPCError.self) {
            try await SystemNameResolver().resolve(host: "no-such-host.invalid", port: 1)
        }
        #expect(error?.code == .unavailable)
    }

    @Test func literalsNeedNoResolver() {
        #expect(ResolvedAddress(numericHost: "127.0.0.2", port: 7)?.description == "127.0.0.2:7")
        #expect(ResolvedAddress(numericHost: "::1", port: 7)?.description == "[::1]:7")
        #expect(ResolvedAddress(numericHost: "localhost", port: 7) == nil)
    }
}
