#if canImport(Glibc)
import Glibc
#endif

/// Names a deployment keeps in a hosts(5) file of its own, each resolving to every address listed for it, as a
/// Kubernetes headless Service's name resolves to every ready pod: `deploy/local/up` with `KINDRED_REPLICAS=3`
/// writes `127.0.0.1 kindred-family`, `127.0.0.2 kindred-family`, ... to `var/run/hosts`. The file is read at
/// every resolution (every `resolveInterval`, and after a connection ends), so a replica added or removed is
/// followed the way a Service's endpoints are. A name the file does not list goes to `fallback`.
public struct HostsFileResolver: NameResolver {
    /// The hosts file.
    public let path: String
    let fallback: any NameResolver

    /// Resolves from the file at `path`, then through `fallback` (the system's resolver).
    public init(path: String, fallback: any NameResolver = SystemNameResolver()) {
        self.path = path
        self.fallback = fallback
    }

    /// What a `ClientConfiguration()` resolves with: the file named by `KINDRED_HOSTS_FILE` when it is set
    /// (the local stack sets it for its services), else the system's resolver.
    public static let processDefault: any NameResolver = {
        guard let path = getenv("KINDRED_HOSTS_FILE").map({ String(cString: $0) }), !path.isEmpty else {
            return SystemNameResolver()
        }
        return HostsFileResolver(path: path)
    }()

    public func resolve(host: String, port: UInt16) async throws(RPCError) -> [ResolvedAddress] {
        let listed = Self.addresses(of: host, port: port, in: Self.contents(of: path) ?? "")
        if !listed.isEmpty { return listed }
        return try await fallback.resolve(host: host, port: port)
    }

    /// Every address `text` (hosts(5): an address, then its names; `#` starts a comment) lists for `host`, in
    /// the file's order, without repeats.
    static func addresses(of host: String, port: UInt16, in text: String) -> [ResolvedAddress] {
        var addresses: [ResolvedAddress] = []
        for line in text.split(separator: "\n") {
            let fields = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields.dropFirst().contains(where: { $0 == host }),
                let address = ResolvedAddress(numericHost: String(fields[0]), port: port),
                !addresses.contains(address)
            else { continue }
            addresses.append(address)
        }
        return addresses
    }

    /// The file's text; nil when it cannot be read (it is then as good as empty). Small and local: read on
    /// the resolving task, which never runs on an event loop.
    private static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
