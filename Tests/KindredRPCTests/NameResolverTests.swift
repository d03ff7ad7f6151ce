import KindredThreads
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

    /// The lookup threads here refuse every job, so only an answer that never asked them can succeed.
    @Test func aLiteralIsAnsweredWithoutTheLookupThreads() async throws {
        let resolver = SystemNameResolver(
            threads: BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 0))
        #expect(try await resolver.resolve(host: "127.0.0.1", port: 7).map(\.description) == ["127.0.0.1:7"])
        #expect(try await resolver.resolve(host: "::1", port: 7).map(\.description) == ["[::1]:7"])
        let name = await #expect(throws: RPCError.self) {
            try await resolver.resolve(host: "localhost", port: 7)
        }
        #expect(name?.message.contains("too many resolutions waiting") == true)
    }

    /// Not a literal (inet_pton refuses it), so it is a name for getaddrinfo, which finds nothing.
    @Test func aLiteralLookingNameThatIsNoAddressIsUnavailable() async {
        let error = await #expect(throws: RPCError.self) {
            try await SystemNameResolver().resolve(host: "256.0.0.1", port: 1)
        }
        #expect(error?.code == .unavailable)
    }

    @Test func literalsNeedNoResolver() {
        #expect(ResolvedAddress(numericHost: "127.0.0.2", port: 7)?.description == "127.0.0.2:7")
        #expect(ResolvedAddress(numericHost: "::1", port: 7)?.description == "[::1]:7")
        #expect(ResolvedAddress(numericHost: "localhost", port: 7) == nil)
    }
}
