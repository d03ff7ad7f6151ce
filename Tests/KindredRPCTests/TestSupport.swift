import KindredMessages
@testable import KindredRPC
import KindredTestSupport
import Logging
import Synchronization

/// A message that is just its wire bytes.
struct RawBytes: ProtoMessage {
    var bytes: [UInt8] = []

    init() {}

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    init(serializedBytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError) {
        if serializedBytes.first == 0xFF {
            throw MessageDecodingError(messageName: Self.protoMessageName, reason: .malformed)
        }
        bytes = Array(serializedBytes)
    }

    func serializedBytes() throws(MessageEncodingError) -> [UInt8] { bytes }

    static var protoMessageName: String { "test.RawBytes" }
}

/// Counts what handlers observed, for assertions from the test thread.
final class Probe: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func record(_ event: String) {
        counts.withLock { $0[event, default: 0] += 1 }
    }

    func count(_ event: String) -> Int {
        counts.withLock { $0[event, default: 0] }
    }
}

struct HandlerCrash: Error {}

/// Frames payloads as gRPC length-prefixed messages.
func grpcFrames(_ payloads: [UInt8]...) -> [UInt8] {
    var out: [UInt8] = []
    for payload in payloads { MessageDeframer.frame(payload, compressed: false, into: &out) }
    return out
}

/// Splits received DATA into message payloads.
func grpcMessages(_ data: [UInt8]) -> [[UInt8]] {
    var deframer = MessageDeframer(maxMessageSize: .max)
    var messages: [[UInt8]] = []
    data.withUnsafeBytes { try? deframer.consume($0) { messages.append($0.bytes) } }
    return messages
}

/// Serves `services` on an ephemeral port for the duration of `body`, then drains; its log goes to `log`
/// when given, nowhere otherwise.
func withServer(
    _ services: [any RPCService], configure: (inout ServerConfiguration) -> Void = { _ in },
    log: CapturedLog? = nil, _ body: (RPCServer) async throws -> Void
) async throws {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.eventLoopCount = 2
    configure(&configuration)
    var logger = log?.logger() ?? Logger(label: "test")
    if log == nil { logger.logLevel = .critical }
    let server = try RPCServer.bind(configuration: configuration, services: services, logger: logger)
    let running = Task { try await server.run() }
    // The tests drive the server with a blocking client: let run() start the loops before blocking.
    while !server.isRunning { await Task.yield() }
    do {
        // Off the cooperative pool: on 2 cores, two blocked pool threads would starve the very handler
        // tasks (detached writers, say) that the blocked test is waiting for.
        try await withTaskExecutorPreference(nextBlockingClientLoop()) { try await body(server) }
    } catch {
        server.beginGracefulShutdown(drainTimeout: .seconds(1))
        try await running.value
        throw error
    }
    server.beginGracefulShutdown(drainTimeout: .seconds(1))
    try await running.value
}

/// The threads the blocking HTTP/2 test client runs on, so that it never holds a cooperative-pool thread. Several,
/// handed out in turn: a test's blocking exchange holds its thread up to its timeout (5 s), and with one thread
/// for the suite every other test's body queued behind it (in CI a test of a 400 ms keepalive took 53 s).
private let blockingClientLoops: [EventLoop] = {
    do { return try EventLoopGroup(count: 4, name: "test-loop").loops } catch {
        fatalError("cannot start the blocking client's loops: \(error)")
    }
}()
private let blockingClientTurn = Atomic<Int>(0)

/// The next of `blockingClientLoops`, in turn.
func nextBlockingClientLoop() -> EventLoop {
    let turn = blockingClientTurn.wrappingAdd(1, ordering: .relaxed).oldValue
    return blockingClientLoops[turn % blockingClientLoops.count]
}
