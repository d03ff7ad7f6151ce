#if canImport(Glibc)
import Glibc
#endif
import FuzzFixtures
import KindredAPI
import KindredAuth
@testable import KindredRPC
import KindredMessages
import Logging

/// A whole server connection fed the input as the bytes a client sends: preface, frames, HPACK header
/// blocks, gRPC messages. The real server (`RPCServer`, one event loop, nghttp2, the call state machine,
/// the authenticator, handlers) adopts one end of a socketpair the way its acceptor adopts a TCP socket;
/// the fuzzer writes the input into the other end, half-closes it, and reads until the server closes.
/// A crash, a sanitizer report, or a server that neither reads nor closes for 10 s is a finding. The same input
/// also drives the connection's state machine directly (`fuzzConnectionState`).
func fuzzConnection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    fuzzConnectionState(UnsafeRawBufferPointer(start: data, count: size))
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
    else {
        fatalError("socketpair failed: errno \(errno)")
    }
    let (client, serverEnd) = (ends[0], ends[1])
    _ = fcntl(serverEnd, F_SETFL, fcntl(serverEnd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
    let server = fuzzedServer
    let counted = server.core.reserveConnection()
    server.loops[0].execute {
        server.loops[0].adopt(fd: serverEnd, peer: "fuzz", core: server.core, counted: counted)
    }
    exchange(client, UnsafeRawBufferPointer(start: data, count: size))
    close(client)
    return 0
}

/// Started on first use and kept for the whole run, as a real server keeps serving.
private let fuzzedServer: RPCServer = {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.eventLoopCount = 1
    configuration.authenticator = TokenAuthenticator(
        keySource: FixedSigningKeys([FuzzFixtures.signingKey.verificationKey]), clock: FuzzFixtures.clock)
    let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
    let server = try! RPCServer.bind(configuration: configuration, services: [EchoService()], logger: logger)
    Task.detached { try await server.run() }
    return server
}()

/// Writes `input` (reading whatever comes back meanwhile, so neither side can block the other), half-closes,
/// and reads until the server closes its end.
private func exchange(_ client: Int32, _ input: UnsafeRawBufferPointer) {
    var written = 0
    var writing = true
    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    if input.isEmpty { shutdown(client, Int32(SHUT_WR)) }
    while true {
        var poller = pollfd(
            fd: client, events: Int16(POLLIN) | (writing && !input.isEmpty ? Int16(POLLOUT) : 0), revents: 0)
        let ready = poll(&poller, 1, 10_000)
        if ready < 0 && errno == EINTR { continue }
        precondition(ready > 0, "the server neither read nor closed the connection for 10 s")
        if poller.revents & Int16(POLLOUT) != 0 && writing {
            let sent = send(client, input.baseAddress! + written, input.count - written, Int32(MSG_NOSIGNAL))
            if sent > 0 { written += sent }
            if sent < 0 && errno != EAGAIN && errno != EINTR { writing = false }
            if written == input.count { writing = false }
            if !writing { shutdown(client, Int32(SHUT_WR)) }
        }
        if poller.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let count = read(client, &scratch, scratch.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return }
        }
    }
}

/// The methods the fuzzed server serves, one of each kind, from `grpc.testing.TestService`: a public
/// unary echo, a protected unary call (so a token in the input goes through the authenticator), a server
/// stream and a client stream, each bounded so that no input can ask for unbounded work.
struct EchoService: RPCService {
    typealias Method = Grpc_Testing_TestService.Method

    var publicMethods: MethodSet {
        [Method.unaryCall, Method.streamingOutputCall, Method.streamingInputCall]
    }

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Method.unaryCall) { (request: Grpc_Testing_SimpleRequest, _) in
            var response = Grpc_Testing_SimpleResponse()
            response.payload = request.payload
            return response
        }
        router.registerUnary(Method.emptyCall) { (_: Grpc_Testing_Empty, context) in
            _ = try context.authenticatedCaller()
            return Grpc_Testing_Empty()
        }
        router.registerServerStreaming(Method.streamingOutputCall) {
            (request: Grpc_Testing_StreamingOutputCallRequest, responses, _) in
            for parameters in request.responseParameters.prefix(4) {
                var response = Grpc_Testing_StreamingOutputCallResponse()
                response.payload = Grpc_Testing_Payload()
                response.payload?.body = Array(
                    repeating: 0x2A, count: Int(min(max(parameters.size, 0), 1024)))
                try await responses.write(response)
            }
        }
        router.registerClientStreaming(Method.streamingInputCall) {
            (requests: RequestStream<Grpc_Testing_StreamingInputCallRequest>, _) in
            var total = 0
            for try await request in requests { total += request.payload?.body.count ?? 0 }
            var response = Grpc_Testing_StreamingInputCallResponse()
            response.aggregatedPayloadSize = Int32(clamping: total)
            return response
        }
    }
}
