// Exercises every path of KindredMessages that touches C memory (unpack/free, arena/pack, the error
// paths in between) without Swift concurrency, so that it runs under valgrind: valgrind 3.19 crashes on
// the threads libdispatch starts for Swift Testing. Tests/valgrind-messages runs it.
import Glibc
import KindredMessages

func check(_ condition: Bool, _ what: String) {
    if !condition {
        print("MessagesMemoryCheck: \(what) failed")
        exit(1)
    }
}

func roundTrips<M: ProtoMessage>(_ message: M) -> Bool {
    (try? M(serializedBytes: try message.serializedBytes())) == message
}

func refuses<M: ProtoMessage>(_ type: M.Type, _ bytes: [UInt8], maxSize: Int = 1 << 20) -> Bool {
    (try? M(serializedBytes: bytes, maxSize: maxSize)) == nil
}

let request = Grpc_Testing_StreamingOutputCallRequest(
    responseParameters: [.init(size: 1), .init(size: 2, intervalUs: 3, compressed: .init(value: true))],
    payload: .init(body: Array(repeating: 0xAB, count: 5000)),
    responseStatus: .init(code: 5, message: "héllo ✓"),
    orcaOobReport: .init(cpuUtilization: 0.5, requestCost: ["a": 1, "b": 2], utilization: ["c": 3])
)
let reflection = Grpc_Reflection_V1_ServerReflectionResponse(
    validHost: "h",
    originalRequest: .init(host: "h", messageRequest: .fileContainingSymbol("grpc.health.v1.Health")),
    messageResponse: .fileDescriptorResponse(
        .init(fileDescriptorProto: ProtoFileRegistry.files.map(\.serializedFileDescriptor)))
)
let status = Google_Rpc_Status(code: 3, message: "bad", details: [.init(typeURL: "t", value: [1, 2, 3])])
let errorInfo = Google_Rpc_ErrorInfo(reason: "R", domain: "d", metadata: ["k": "v", "l": "ü"])

for _ in 0..<200 {
    check(roundTrips(request), "StreamingOutputCallRequest round trip")
    check(roundTrips(reflection), "ServerReflectionResponse round trip")
    check(roundTrips(status) && roundTrips(errorInfo), "Status and ErrorInfo round trips")
    check(roundTrips(Grpc_Health_V1_HealthCheckResponse(status: .unrecognized(9))), "unknown enum round trip")
    check(roundTrips(Grpc_Testing_Empty()), "empty message round trip")
    // A NUL deep inside: the arena must free what was built before the failure.
    let nul = Grpc_Testing_StreamingOutputCallRequest(
        payload: .init(body: [1]), responseStatus: .init(message: "a\u{0}"))
    check((try? nul.serializedBytes()) == nil, "NUL refused on encode")
    check(
        (try? Google_Rpc_ErrorInfo(metadata: ["a": "1", "b\u{0}": "2"]).serializedBytes()) == nil,
        "NUL in map key refused")
    for malformed: [UInt8] in [
        [0x08], [0x0A, 0x05, 0x61], [0x0F, 0x01], [0x0A, 0x02, 0xC3, 0x28], [0x0A, 0x02, 0x61, 0x00],
        [0x08, 0x01],
    ] {
        check(refuses(Grpc_Health_V1_HealthCheckRequest.self, malformed), "malformed input refused")
    }
    // Fails inside protobuf-c after the validator passed it: a packed varint cut short in a known field.
    check(
        refuses(Grpc_Testing_ReconnectInfo.self, [0x12, 0x02, 0x01, 0xFF]), "truncated packed field refused")
    check(refuses(Grpc_Testing_SimpleRequest.self, Array(repeating: 0, count: 64), maxSize: 8), "size limit")
}
print("MessagesMemoryCheck: ok")
