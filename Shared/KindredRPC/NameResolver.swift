#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem
internal import KindredThreads

/// Turns a target's host name into every address behind it. `RPCClient` asks it off its event loops, when
/// the first call needs an answer, every `ClientConfiguration.resolveInterval`, and when a connection ends or
/// is told GOAWAY. Tests inject one whose answer changes over time.
public protocol NameResolver: Sendable {
    /// Every address (IPv4 and IPv6) `host` names, with `port`, in the order to prefer them; throws
    /// UNAVAILABLE when the name does not resolve.
    func resolve(host: String, port: UInt16) async throws(RPCError) -> [ResolvedAddress]
}

/// The system's resolver (`getaddrinfo`: /etc/hosts, then DNS), run on threads of its own: a slow DNS server
/// holds one of those threads, never an event loop. An IPv4 or IPv6 literal is its own answer, at once: it
/// would otherwise wait for one of those two threads (behind a stuck DNS lookup, say) to learn nothing.
public struct SystemNameResolver: NameResolver {
    /// Shared by every client of the process: resolutions are rare (one per target every 30 s, plus one
    /// per connection that ends), so two threads are plenty, and a stuck DNS server cannot take more.
    private static let sharedThreads = BlockingThreadPool(name: "name-lookup", limit: 2, maxQueued: 1024)

    private let threads: BlockingThreadPool

    public init() {
        self.init(threads: Self.sharedThreads)
    }

    /// Looks names up on `threads` (tests hand it one that refuses every job).
    init(threads: BlockingThreadPool) {
        self.threads = threads
    }

    public func resolve(host: String, port: UInt16) async throws(RPCError) -> [ResolvedAddress] {
        if let literal = ResolvedAddress(numericHost: host, port: port) { return [literal] }
        let answer: Result<[ResolvedAddress], RPCError>
        do {
            answer = try await threads.run { Self.lookUp(host: host, port: port) }
        } catch {
            throw RPCError(.unavailable, "cannot resolve \(host): too many resolutions waiting")
        }
        return try answer.get()
    }

    /// The blocking lookup: every stream address of `host`, without repeats, in getaddrinfo's order.
    static func lookUp(host: String, port: UInt16) -> Result<[ResolvedAddress], RPCError> {
        assert(EventLoop.current == nil, "getaddrinfo must never block an event loop")
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, results != nil else {
            return .failure(
                RPCError(.unavailable, "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(results) }
        var addresses: [ResolvedAddress] = []
        var next = results
        while let current = next {
            next = current.pointee.ai_next
            guard let address = current.pointee.ai_addr else { continue }
            let resolved = ResolvedAddress(address, length: current.pointee.ai_addrlen)
            if !addresses.contains(resolved) { addresses.append(resolved) }
        }
        guard !addresses.isEmpty else { return .failure(RPCError(.unavailable, "cannot resolve \(host)")) }
        return .success(addresses)
    }
}
