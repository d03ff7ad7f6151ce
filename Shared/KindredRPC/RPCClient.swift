import Synchronization

/// A gRPC client for one peer (`host:port`): calls multiplex over a small pool of HTTP/2 connections
/// on the event loop the caller runs on (a server handler's own loop, so its calls never hop
/// threads), or on a shared client loop otherwise. A name that resolves to several addresses (a headless
/// Service) gets connections to each, and calls are spread over them (`ClientConnectionPool`).
public final class RPCClient: Sendable {
    let target: ConnectTarget
    let addresses: TargetAddresses
    let configuration: ClientConfiguration
    /// The request headers every call of this client sends, `:path` aside: built once, not per call.
    let fixedHeaders: [(name: String, value: String)]
    private let group: EventLoopGroup
    private let pools = Mutex<[ObjectIdentifier: ClientConnectionPool]>([:])
    private let isClosed = Atomic<Bool>(false)
    /// Per method path, when its last peer failure was reported (`RPCClient+PeerWarnings.swift`).
    let peerWarnings = Mutex(PeerWarningWindows())
    /// What the client's unary calls asked for and got, when it throttles itself (`ClientThrottle`).
    let throttle: Mutex<ClientThrottle?>

    /// Creates a client for `target` (`host:port`); connections open on the first call.
    public init(target: String, configuration: ClientConfiguration = ClientConfiguration()) throws(RPCError) {
        guard let parsed = ConnectTarget(target) else {
            throw RPCError(.invalidArgument, "malformed target \(target)")
        }
        self.target = parsed
        addresses = TargetAddresses(target: parsed, configuration: configuration)
        self.configuration = configuration
        throttle = Mutex(configuration.throttle.map(ClientThrottle.init(settings:)))
        fixedHeaders = [
            (":method", "POST"), (":scheme", "http"), (":authority", parsed.description),
            ("content-type", "application/grpc"), ("te", "trailers"), ("user-agent", configuration.userAgent),
            ("grpc-accept-encoding", MessageEncoding.acceptedList),
        ]
        group = EventLoopGroup.shared
    }

    // The loops hold the connections; without this, a dropped client would leave them open.
    deinit {
        close()
    }

    /// Refuses new calls and closes every connection once its open calls finish.
    public func close() {
        isClosed.store(true, ordering: .releasing)
        addresses.close()
        let all = pools.withLock { pools in
            defer { pools.removeAll() }
            return Array(pools.values)
        }
        for pool in all { pool.loop.execute { pool.close() } }
    }

    /// How many calls each address of the target has taken since the client was made (`127.0.0.2:50052`):
    /// how it spread them over the replicas behind the name. Read on each pool's loop; the client's calls
    /// until `close()`.
    public func callsPerAddress() async -> [String: Int] {
        let all = pools.withLock { Array($0.values) }
        var total: [String: Int] = [:]
        for pool in all {
            let counts = await withCheckedContinuation { continuation in
                pool.loop.execute { continuation.resume(returning: pool.callsPerAddress()) }
            }
            for (address, calls) in counts { total[address.description, default: 0] += calls }
        }
        return total
    }

    /// Runs one attempt of a call: opens its stream on the caller's loop (or a client loop) and hands
    /// it to `consume` there. With `streamsRequests`, `body` is only the start: `consume` writes the
    /// rest, and a refused stream is not sent again (the caller's messages are gone).
    func attempt<Value>(
        headers: [(name: String, value: String)], body: [UInt8], streamsRequests: Bool = false,
        deadline: ContinuousClock.Instant, _ consume: (ClientCall) async throws(RPCError) -> Value
    ) async throws(RPCError) -> Value {
        guard !isClosed.load(ordering: .acquiring) else {
            throw RPCError(.unavailable, "the client is closed")
        }
        try await addresses.awaitFirstAnswer()
        let loop = EventLoop.current ?? group.next()
        return try await Self.preferring(loop) { () async throws(RPCError) -> Value in
            var resends = 0
            while true {
                let requestBody = HTTP2RequestBody(body, isComplete: !streamsRequests)
                let call = try self.start(headers: headers, body: requestBody, deadline: deadline, on: loop)
                do throws(RPCError) {
                    return try await Self.consumeCancellably(call, on: loop, consume)
                } catch  where call.wasRefused && !streamsRequests && resends < Self.maxResends {
                    // The server never processed the stream (REFUSED_STREAM, past a GOAWAY, or its
                    // connect failed): sending it again is safe whether or not the call is idempotent.
                    resends += 1
                }
            }
        }
    }

    /// Times a call refused unprocessed by the server is sent again at once.
    private static let maxResends = 3

    /// Runs `consume` on the call's loop; cancelling the task cancels the call (RST_STREAM CANCEL).
    static func consume<Value>(
        _ call: ClientCall, on loop: EventLoop, _ consume: (ClientCall) async throws(RPCError) -> Value
    ) async throws(RPCError) -> Value {
        try await preferring(loop) { () async throws(RPCError) -> Value in
            try await consumeCancellably(call, on: loop, consume)
        }
    }

    /// Runs `body` in a task that prefers `loop`. A task that already does (a handler's, or one started on the
    /// loop, as the load tool's users with `--threads`) runs it as it is: pushing the same preference again
    /// costs a status record pushed and popped under the task's lock, and every enqueue of the task walks them.
    static func preferring<Value>(_ loop: EventLoop, _ body: () async throws(RPCError) -> Value)
        async throws(RPCError) -> Value
    {
        if withUnsafeCurrentTask(body: { $0?.unownedTaskExecutor }) == loop.asUnownedTaskExecutor() {
            return try await body()
        }
        return try await withTaskExecutorPreference(loop, operation: body)
    }

    /// `consume` for a task that already prefers the call's loop (`attempt`): a second preference would push
    /// and pop another status record on the task, under its lock, for every call.
    private static func consumeCancellably<Value>(
        _ call: ClientCall, on loop: EventLoop, _ consume: (ClientCall) async throws(RPCError) -> Value
    ) async throws(RPCError) -> Value {
        let handle = LoopBound(call, loop: loop)
        // withTaskCancellationHandler rethrows untyped errors, so the typed one travels in a Result.
        let outcome = await withTaskCancellationHandler { () async -> Result<Value, RPCError> in
            do throws(RPCError) { return .success(try await consume(call)) } catch {
                return .failure(error)
            }
        } onCancel: {
            handle.loop.execute {
                handle.value.cancel(with: RPCError(.cancelled, "the caller cancelled the call"))
            }
        }
        return try outcome.get()
    }

    func start(
        headers: [(name: String, value: String)], body: HTTP2RequestBody, deadline: ContinuousClock.Instant,
        on loop: EventLoop
    ) throws(RPCError) -> ClientCall {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else {
            throw RPCError(.deadlineExceeded, "the deadline passed before the call started")
        }
        let call = ClientCall(
            headers: headers, timeout: GRPCTimeout.encode(remaining), body: body,
            maxResponseSize: configuration.maxResponseMessageSize, loop: loop)
        try pool(for: loop).connection().start(call)
        if call.outcome == nil {
            call.deadlineTimer = loop.schedule(after: remaining) {
                call.cancel(with: RPCError(.deadlineExceeded, "the deadline passed"))
            }
        }
        return call
    }

    private func pool(for loop: EventLoop) -> ClientConnectionPool {
        pools.withLock { pools in
            if let pool = pools[ObjectIdentifier(loop)] { return pool }
            let pool = ClientConnectionPool(loop: loop, addresses: addresses, configuration: configuration)
            pools[ObjectIdentifier(loop)] = pool
            return pool
        }
    }
}
