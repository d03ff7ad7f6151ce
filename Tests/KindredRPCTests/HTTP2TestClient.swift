import CNGHTTP2
import Glibc
import KindredTestSupport

/// A blocking HTTP/2 client on nghttp2's client session, for driving a real server from tests.
final class HTTP2TestClient {
    struct Response {
        var headers: [(name: String, value: String)] = []
        var trailers: [(name: String, value: String)] = []
        var data: [UInt8] = []
        var closed = false
        var resetCode: UInt32 = 0

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        /// The gRPC status from the trailers, or from the headers of a trailers-only response.
        var grpcStatus: Int? {
            (trailers + headers).first { $0.name == "grpc-status" }.flatMap { Int($0.value) }
        }
        var grpcMessage: String? { (trailers + headers).first { $0.name == "grpc-message" }?.value }
        var httpStatus: Int? { header(":status").flatMap { Int($0) } }
        func trailer(_ name: String) -> String? { (trailers + headers).first { $0.name == name }?.value }
    }

    let fd: Int32
    private var session: OpaquePointer?
    var responses: [Int32: Response] = [:]
    var bodies: [Int32: (bytes: [UInt8], offset: Int, end: Bool)] = [:]
    private(set) var goAwayReceived = false

    init(port: Int) throws {
        fd = try Loopback.connect(port: port)
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, clientOnHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, clientOnData)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, clientOnClose)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, clientOnFrame)
        nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        nghttp2_submit_settings(session, 0, nil, 0)
    }

    deinit {
        nghttp2_session_del(session)
        close(fd)
    }

    /// Starts a request: gRPC headers plus `extraHeaders`, then `body`; `endStream` half-closes after it.
    func start(
        path: String, body: [UInt8], contentType: String = "application/grpc",
        extraHeaders: [(String, String)] = [], endStream: Bool = true
    ) -> Int32 {
        let fields =
            [
                (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                ("content-type", contentType), ("te", "trailers"),
            ] + extraHeaders
        let pairs = fields.map { (Array($0.0.utf8), Array($0.1.utf8)) }
        let storage = pairs.map {
            (
                UnsafeMutablePointer<UInt8>.allocate(capacity: $0.0.count + 1),
                UnsafeMutablePointer<UInt8>.allocate(capacity: $0.1.count + 1)
            )
        }
        defer {
            storage.forEach {
                $0.0.deallocate(); $0.1.deallocate()
            }
        }
        var nva: [nghttp2_nv] = []
        for (index, pair) in pairs.enumerated() {
            storage[index].0.initialize(from: pair.0, count: pair.0.count)
            storage[index].1.initialize(from: pair.1, count: pair.1.count)
            nva.append(
                nghttp2_nv(
                    name: storage[index].0, value: storage[index].1, namelen: pair.0.count,
                    valuelen: pair.1.count, flags: 0))
        }
        var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: clientRead)
        let id = nghttp2_submit_request(session, nil, nva, nva.count, &provider, nil)
        bodies[id] = (body, 0, endStream)
        responses[id] = Response()
        return id
    }

    /// Queues more request bytes on an open stream; `end` half-closes after them.
    func sendMore(_ streamID: Int32, _ bytes: [UInt8], end: Bool) {
        bodies[streamID]!.bytes += bytes
        bodies[streamID]!.end = end
        nghttp2_session_resume_data(session, streamID)
    }

    func cancel(_ streamID: Int32) {
        nghttp2_submit_rst_stream(session, 0, streamID, UInt32(NGHTTP2_CANCEL.rawValue))
    }

    /// Exchanges frames until `done` holds or the timeout passes.
    func run(timeout: Double = 5, until done: () -> Bool) {
        let end = Double(monotonicMillis()) + timeout * 1000
        while !done() && Double(monotonicMillis()) < end {
            flush()
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) >= 0 else { return }
            if poller.revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = Glibc.read(fd, &buffer, buffer.count)
                if count <= 0 { return }
                nghttp2_session_mem_recv(session, buffer, count)
            }
        }
        flush()
    }

    /// Runs until a stream closes and returns its response.
    func wait(_ streamID: Int32, timeout: Double = 5) -> Response {
        run(timeout: timeout) { responses[streamID]?.closed == true }
        return responses[streamID]!
    }

    /// One complete call.
    func call(
        path: String, body: [UInt8], contentType: String = "application/grpc",
        extraHeaders: [(String, String)] = [], timeout: Double = 5
    ) -> Response {
        wait(
            start(path: path, body: body, contentType: contentType, extraHeaders: extraHeaders),
            timeout: timeout)
    }

    /// Sends what is queued without reading anything (the peer's flow-control windows stay shut).
    func flush() {
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else { return }
            var offset = 0
            while offset < count {
                let written = write(fd, data + offset, count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    func produce(
        into buffer: UnsafeMutablePointer<UInt8>, length: Int, streamID: Int32,
        flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard var body = bodies[streamID] else { return 0 }
        let count = min(length, body.bytes.count - body.offset)
        body.bytes.withUnsafeBufferPointer {
            buffer.update(from: $0.baseAddress! + body.offset, count: count)
        }
        body.offset += count
        bodies[streamID] = body
        if body.offset == body.bytes.count {
            if body.end {
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            } else if count == 0 {
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        return count
    }

    func header(_ frame: UnsafePointer<nghttp2_frame>, _ name: String, _ value: String) {
        let id = frame.pointee.hd.stream_id
        if frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS {
            responses[id]?.trailers.append((name, value))
        } else {
            responses[id]?.headers.append((name, value))
        }
    }

    func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        if UInt32(frame.pointee.hd.type) == NGHTTP2_GOAWAY.rawValue { goAwayReceived = true }
    }
}

func monotonicMillis() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec) / 1_000_000
}
