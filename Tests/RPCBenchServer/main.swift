// Benchmark-only server: `/bench.Echo/Call` echoes its request bytes, for h2load.
// Usage: RPCBenchServer [port] [event loops]
import KindredMessages
import KindredRPC
import Logging

/// A message that is just its wire bytes, so the benchmark measures the transport alone.
struct RawBytes: ProtoMessage {
    var bytes: [UInt8] = []

    init() {}

    init(serializedBytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError) {
        bytes = Array(serializedBytes)
    }

    func serializedBytes() throws(MessageEncodingError) -> [UInt8] { bytes }

    static var protoMessageName: String { "bench.RawBytes" }
}

/// Echo methods of every call shape; `Stream` answers `request.count` copies of the request.
struct EchoService: RPCService {
    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(MethodDescriptor(service: "bench.Echo", method: "Call")) {
            (request: RawBytes, context: ServerContext) -> RawBytes in
            context.compressResponse = context.requestMetadata["x-compress"] == "1"
            return request
        }
        router.registerServerStreaming(MethodDescriptor(service: "bench.Echo", method: "Stream")) {
            (request: RawBytes, writer: ResponseStreamWriter<RawBytes>, _: ServerContext) in
            for _ in 0..<request.bytes.count { try await writer.write(request) }
        }
        router.registerBidirectionalStreaming(MethodDescriptor(service: "bench.Echo", method: "Chat")) {
            (requests: RequestStream<RawBytes>, writer: ResponseStreamWriter<RawBytes>, _: ServerContext) in
            for try await request in requests { try await writer.write(request) }
        }
    }
}

let arguments = CommandLine.arguments
var configuration = ServerConfiguration(
    host: "127.0.0.1", port: arguments.count > 1 ? Int(arguments[1])! : 50099)
if arguments.count > 2 { configuration.eventLoopCount = Int(arguments[2])! }
var logger = Logger(label: "bench")
logger.logLevel = .warning
let server = try RPCServer.bind(configuration: configuration, services: [EchoService()], logger: logger)
print("listening on \(server.port)")
try await server.run()
