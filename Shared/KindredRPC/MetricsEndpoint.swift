#if canImport(Glibc)
import Glibc
#endif
public import KindredMetrics
import KindredThreads
import Synchronization

/// `GET /metrics` over plain HTTP/1.1 on a port of its own, answered by one thread of its own: a scrape
/// never runs on an RPC event loop, and a slow scraper delays only the next scrape.
public final class MetricsEndpoint: Sendable {
    /// The bound port (the one asked for, or the one the system chose for port 0).
    public let port: Int
    private let socket: ListeningSocket
    private let registry: MetricsRegistry
    private let closed = Atomic<Bool>(false)
    private let exited = Atomic<Bool>(false)

    /// Binds `host:port` and starts answering.
    public init(host: String, port: Int, registry: MetricsRegistry) throws {
        socket = try ListeningSocket(host: host, port: port, backlog: 16)
        self.port = socket.port
        self.registry = registry
        try DetachedThread.start(name: "metrics-http") { [self] in serve() }
    }

    /// Stops answering within a poll interval; the thread closes the socket on its way out.
    public func close() {
        closed.store(true, ordering: .relaxed)
    }

    private func serve() {
        defer { Glibc.close(socket.fd) }
        var listening = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        while !closed.load(ordering: .relaxed) {
            guard poll(&listening, 1, 200) > 0, let (client, _) = socket.accept() else { continue }
            answer(client)
            Glibc.close(client)
        }
    }

    /// Reads one request (2 s at most) and writes one response; the connection then closes.
    private func answer(_ client: Int32) {
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readHead(client) else { return }
        let response: [UInt8]
        switch MetricsRequest(head: request) {
        case .metrics:
            response = MetricsRequest.response(200, "OK", PrometheusText.contentType, renderBlocking())
        case .notFound:
            response = MetricsRequest.response(404, "Not Found", "text/plain", Array("Not found.\n".utf8))
        case .notAllowed:
            response = MetricsRequest.response(
                405, "Method Not Allowed", "text/plain", Array("Use GET.\n".utf8))
        }
        var sent = 0
        while sent < response.count {
            let written = response[sent...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            sent += written
        }
    }

    /// The request line and headers, up to the blank line; nil when the client sends nothing usable.
    private func readHead(_ client: Int32) -> [UInt8]? {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1_024)
        while head.count < 8_192 {
            let count = chunk.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            head += chunk[..<count]
            if head.firstRange(of: Array("\r\n\r\n".utf8)) != nil { return head }
        }
        return nil
    }

    /// Waits on this thread for the registry's sources, some of which read the database.
    private func renderBlocking() -> [UInt8] {
        let handoff = Handoff()
        Task { [registry] in handoff.deliver(await registry.render().bytes) }
        return handoff.wait()
    }
}

/// One value handed from a task to the thread that waits for it.
private final class Handoff: @unchecked Sendable {
    // Unchecked: `bytes` is written once before sem_post and read after sem_wait returns, which orders them.
    private var bytes: [UInt8] = []
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() {
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func deliver(_ value: [UInt8]) {
        bytes = value
        sem_post(semaphore)
    }

    func wait() -> [UInt8] {
        while sem_wait(semaphore) != 0 {}  // EINTR
        return bytes
    }
}

/// What a metrics request asks for, from its request line.
enum MetricsRequest: Equatable {
    case metrics, notFound, notAllowed

    init(head: [UInt8]) {
        let line = head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let parts = line.split(separator: UInt8(ascii: " "))
        guard parts.count >= 2, parts[0].elementsEqual("GET".utf8) else {
            self = .notAllowed
            return
        }
        let path = parts[1].prefix { $0 != UInt8(ascii: "?") }
        self = path.elementsEqual("/metrics".utf8) ? .metrics : .notFound
    }

    static func response(_ status: Int, _ reason: String, _ type: String, _ body: [UInt8]) -> [UInt8] {
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
