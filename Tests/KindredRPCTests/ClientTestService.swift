#if canImport(Glibc)
import Glibc
#endif
import KindredMessages
@testable import KindredRPC
import KindredTestSupport
import Logging
import Synchronization

/// A test message whose wire bytes are its text's UTF-8, so tests need no generated types.
struct ClientTestText: ProtoMessage {
    var text = ""

    init() {}

    init(_ text: String) {
        self.text = text
    }

    init(serializedBytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError) {
        text = String(decoding: serializedBytes, as: UTF8.self)
    }

    func serializedBytes() throws(MessageEncodingError) -> [UInt8] { Array(text.utf8) }

    static var protoMessageName: String { "test.Text" }
}

/// What the streaming handler observed, for assertions from the test.
final class ClientTestObservations: Sendable {
    let streamCancelled = Mutex(false)
    let unaryCalls = Atomic<Int>(0)
    /// A client to this same server, for the relay (deadline propagation) method.
    let relayClient = Mutex<RPCClient?>(nil)
    /// Where `Hold` waits: it answers only once the test opens it.
    let hold = ClientTestGate()
    /// Where `test.Upload/SumLater` waits before it reads a request.
    let upload = ClientTestGate()
}

/// A gate handlers wait at until the test opens it, so a test can wait on an answer that has not come yet.
final class ClientTestGate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// How many calls wait at the gate.
    var waiting: Int { state.withLock { $0.waiters.count } }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// `test.Client`: small methods (Count takes "messages[,pause ms[,padding bytes]]") that exercise one client behaviour each.
struct ClientTestService: RPCService {
    let publicMethods = MethodSet.all

    static func method(_ name: String) -> MethodDescriptor {
        MethodDescriptor(service: "test.Client", method: name)
    }

    let observations: ClientTestObservations

    func registerMethods(with router: inout RPCRouter) {
        let observations = observations
        router.registerUnary(Self.method("Echo")) {
            (request: ClientTestText, context: ServerContext) -> ClientTestText in
            observations.unaryCalls.add(1, ordering: .relaxed)
            if request.text == "busy" { throw RPCError.serverOverloaded(retryAfter: .milliseconds(250)) }
            if request.text == "busy, no delay" { throw RPCError.overloadRefusalNamingNoDelay }
            if request.text == "fail" {
                context.addResponseTrailer("x-reason", "asked to")
                throw RPCError(
                    .permissionDenied, "not allowed: 100% ✋",
                    details: [
                        .errorInfo(reason: "PARENTAL_CONTROLS", domain: "kindred.test", metadata: ["k": "v"]),
                        .retryInfo(retryDelay: .seconds(3)),
                    ])
            }
            return request
        }
        router.registerUnary(Self.method("Peer")) { (_: ClientTestText, context: ServerContext) in
            ClientTestText(context.peer)
        }
        router.registerUnary(Self.method("Sleep")) {
            (request: ClientTestText, _: ServerContext) -> ClientTestText in
            try await Task.sleep(for: .milliseconds(Int(request.text) ?? 0))
            return ClientTestText("slept")
        }
        router.registerUnary(Self.method("Hold")) { (_: ClientTestText, _: ServerContext) in
            await observations.hold.wait()
            return ClientTestText("released")
        }
        router.registerUnary(Self.method("Metadata")) { (_: ClientTestText, context: ServerContext) in
            let echo = context.requestMetadata["x-echo"] ?? "-"
            let token = context.requestMetadata["authorization"] ?? "-"
            let binary = context.requestMetadata[binary: "x-blob-bin"].map { "\($0)" } ?? "-"
            context.addResponseHeader("x-echo-header", echo)
            context.addResponseTrailer("x-echo-trailer", binary: [9, 8])
            return ClientTestText("\(echo)|\(token)|\(binary)")
        }
        router.registerUnary(Self.method("Deadline")) { (_: ClientTestText, context: ServerContext) in
            let remaining = context.deadline.map { ContinuousClock.now.duration(to: $0) }
            return ClientTestText(
                remaining.map {
                    "\($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)"
                } ?? "none")
        }
        router.registerUnary(Self.method("Relay")) {
            (_: ClientTestText, _: ServerContext) -> ClientTestText in
            guard let client = observations.relayClient.withLock({ $0 }) else {
                throw RPCError(.failedPrecondition, "no relay client")
            }
            return try await client.unary(method: Self.method("Deadline"), request: ClientTestText())
        }
        router.registerServerStreaming(Self.method("LargeThenFail")) {
            (_: ClientTestText, writer: ResponseStreamWriter<ClientTestText>, _: ServerContext) in
            // A download whose store fails after the first chunk: more than the 1 MiB window, then a status.
            try await writer.write(ClientTestText(String(repeating: "x", count: 1_100_000)))
            throw RPCError(.dataLoss, "the rest of the photo could not be read")
        }
        router.registerServerStreaming(Self.method("Count")) {
            (request: ClientTestText, writer: ResponseStreamWriter<ClientTestText>, _: ServerContext) in
            let parts = request.text.split(separator: ",").compactMap { Int($0) }
            let count = parts.first ?? 0, pause = parts.count > 1 ? parts[1] : 0,
                padding = parts.count > 2 ? parts[2] : 0
            do {
                for index in 0..<count {
                    if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
                    try await writer.write(
                        ClientTestText("\(index)" + String(repeating: " ", count: padding)))
                }
            } catch {
                observations.streamCancelled.withLock { $0 = true }
                throw error
            }
        }
    }
}

/// A running `RPCServer` with the test service on 127.0.0.1 (or another loopback address).
final class ClientTestServer: Sendable {
    let server: RPCServer
    let observations = ClientTestObservations()
    private let runner: Task<Void, any Error>

    let host: String
    var port: Int { server.port }
    var target: String { "\(host):\(port)" }

    /// Binds on `host`:`port` (0 for any free one) and starts serving.
    init(
        host: String = "127.0.0.1", port: Int = 0, maxConcurrentStreams: Int? = nil,
        tls: ServerTLSSettings? = nil,
        log: CapturedLog? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        self.host = host
        var configuration = ServerConfiguration(host: host, port: port)
        configuration.eventLoopCount = 1
        // The clients run on `clientTestLoop`, one thread for every client test: in the whole suite (1,500 tests
        // on 2 cores) it was behind by seconds, and a client whose connect the server had accepted sent its
        // preface after the 5 s default, so the server closed the connection and the test's first call failed
        // "the connection to the server was lost" (TLS, hosts-file and host-name tests together, 16 s in). A
        // client that never speaks is HandshakeDeadlineTests' subject, on servers of their own.
        configuration.handshakeTimeout = .seconds(30)
        if let maxConcurrentStreams { configuration.maxConcurrentStreams = maxConcurrentStreams }
        configuration.tls = tls
        configure(&configuration)
        var logger = log?.logger(label: "client-tests") ?? Logger(label: "client-tests")
        if log == nil { logger.logLevel = .critical }
        let services: [any RPCService] = [
            ClientTestService(observations: observations), ClientUploadTestService(gate: observations.upload),
        ]
        server = try RPCServer.bind(configuration: configuration, services: services, logger: logger)
        let server = server
        runner = Task(executorPreference: clientTestLoop) { try await server.run() }
    }

    /// Drains and stops the server, waiting until it has.
    func stop() async {
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
    }
}

/// A loop of the tests' own. Test bodies, and the tasks they and the test server start, run on it
/// so that their timing does not depend on the cooperative pool, which tests elsewhere may hold
/// with blocking I/O; client calls made there take the on-loop path a server handler takes.
let clientTestLoop: EventLoop = {
    do { return try EventLoopGroup(count: 1, name: "test-loop").loops[0] } catch {
        fatalError("cannot start the test loop: \(error)")
    }
}()

extension ClientConfiguration {
    /// The defaults with a 30 s deadline and connect timeout instead of 10 s and 5 s, for the client tests. The
    /// suite runs ~1,500 tests at once on 2 cores: a call's loop can wait its turn among hundreds of runnable
    /// threads for seconds (a TLS connection timed out so and left its client backing off, failing the call
    /// UNAVAILABLE "unreachable"), and these tests check what a call does, not how fast (benchmarks measure
    /// that). A test of deadlines or of connecting sets its own.
    static var tests: ClientConfiguration {
        var configuration = ClientConfiguration()
        configuration.defaultTimeout = .seconds(30)
        configuration.connectTimeout = .seconds(30)
        return configuration
    }
}

/// Runs `body` on `clientTestLoop`.
func onClientTestLoop<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(clientTestLoop) { try await body() }
}

/// A TCP port that completes handshakes (the kernel does, from the backlog) but never answers: a
/// peer that went silent without closing anything.
final class ClientSilentPeer {
    let fd: Int32
    let port: Int

    init() throws {
        (fd, port) = try Loopback.bind(listening: 16)
    }

    deinit { close(fd) }
}
