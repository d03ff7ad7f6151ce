import Glibc
import KindredMessages
import KindredRPC
import KindredTestSupport

/// The methods the end-to-end tests call.
struct TestService: RPCService {
    let probe: Probe
    let publicMethods = MethodSet.all

    static func path(_ method: String) -> String { "/test.Service/\(method)" }

    private func method(_ name: String) -> MethodDescriptor {
        MethodDescriptor(service: "test.Service", method: name)
    }

    func registerMethods(with router: inout RPCRouter) {
        let probe = probe
        router.registerUnary(method("Echo")) { (request: RawBytes, _) -> RawBytes in request }
        router.registerUnary(method("Fail")) { (_: RawBytes, context) -> RawBytes in
            context.addResponseTrailer("x-trailer", "kept")
            throw RPCError(
                .permissionDenied, "not allowed: 100% ✓",
                details: [.errorInfo(reason: "PARENTAL_CONTROLS", domain: "kindred", metadata: [:])],
                trailers: Metadata(["x-why": "because"]))
        }
        router.registerUnary(method("Crash")) { (_: RawBytes, _) -> RawBytes in throw HandlerCrash() }
        router.registerUnary(method("Sleep")) { (request: RawBytes, context) -> RawBytes in
            probe.record(context.deadline == nil ? "sleep-without-deadline" : "sleep-with-deadline")
            do {
                try await untilCancelled()
            } catch {
                probe.record("sleep-cancelled")
                throw error
            }
            return request
        }
        router.registerServerStreaming(method("Count")) {
            (request: RawBytes, writer: ResponseStreamWriter<RawBytes>, _) in
            for index in 0..<Int(request.bytes.first ?? 0) {
                try await writer.write(RawBytes([UInt8(index)]))
            }
        }
        router.registerServerStreaming(method("Silent")) {
            (_: RawBytes, writer: ResponseStreamWriter<RawBytes>, context) in
            // A watch with nothing to report yet: it writes only when there is news.
            context.addResponseHeader("x-watching", "yes")
            try await untilCancelled()
        }
        router.registerServerStreaming(method("CountThenFail")) {
            (_: RawBytes, writer: ResponseStreamWriter<RawBytes>, context) in
            try await writer.write(RawBytes([context.requestID == "req-7" ? 7 : 0]))
            throw RPCError(.aborted, "lost a race", details: [.retryInfo(retryDelay: .milliseconds(100))])
        }
        router.registerServerStreaming(method("Flood")) {
            (_: RawBytes, writer: ResponseStreamWriter<RawBytes>, _) in
            let chunk = RawBytes([UInt8](repeating: 7, count: 16 << 10))
            for _ in 0..<1000 {
                try await writer.write(chunk)
                probe.record("flood-written")
            }
        }
        router.registerClientStreaming(method("Collect")) {
            (requests: RequestStream<RawBytes>, _) -> RawBytes in
            var all: [UInt8] = []
            for try await request in requests { all += request.bytes }
            return RawBytes(all)
        }
        router.registerBidirectionalStreaming(method("Chat")) {
            (requests: RequestStream<RawBytes>, writer: ResponseStreamWriter<RawBytes>, _) in
            for try await request in requests { try await writer.write(request) }
        }
        router.registerUnary(method("Metadata")) { (request: RawBytes, context) -> RawBytes in
            context.addResponseHeader("x-echo", context.requestMetadata["x-in"] ?? "missing")
            context.addResponseTrailer(
                "x-data-bin", binary: context.requestMetadata[binary: "x-data-bin"] ?? [])
            return request
        }
        router.registerUnary(method("ThreadName")) { (_: RawBytes, _) -> RawBytes in
            let file = open("/proc/thread-self/comm", O_RDONLY)
            defer { close(file) }
            var name = [UInt8](repeating: 0, count: 32)
            let count = read(file, &name, name.count)
            return RawBytes(Array(name.prefix(max(0, count)).filter { $0 != 10 }))
        }
        router.registerUnary(method("Small"), maxRequestSize: 8) { (request: RawBytes, _) -> RawBytes in
            request
        }
        router.registerUnary(method("Compressed")) { (request: RawBytes, context) -> RawBytes in
            context.compressResponse = true
            return RawBytes(request.bytes + [context.requestWasCompressed ? 1 : 0])
        }
    }
}

/// Methods whose handlers leave their loop: writes from a task on another thread, and a very long header.
struct DetachedWriterService: RPCService {
    let publicMethods = MethodSet.all

    func registerMethods(with router: inout RPCRouter) {
        router.registerServerStreaming(MethodDescriptor(service: "test.Detached", method: "Write")) {
            (_: RawBytes, writer: ResponseStreamWriter<RawBytes>, _) in
            // Off the call's loop on the tests' own loop, not the cooperative pool: under the full suite other
            // tests hold the pool's threads with blocking work, and a detached task waited out the test's 20 s.
            try await Task(executorPreference: clientTestLoop) {
                try await writer.write(RawBytes([42]))
            }.value
        }
    }
}
