import KindredMessages
import Testing

/// Mutations of valid wire bytes (flipped bits, cuts, splices) are either decoded or refused with a
/// `MessageDecodingError`, never anything worse; what decodes re-encodes stably. Run under
/// AddressSanitizer by Tests/valgrind-messages.
@Suite struct MutatedInputTests {
    /// SplitMix64: a fixed seed, so that a failure reproduces.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutate(_ bytes: [UInt8], using random: inout Generator) -> [UInt8] {
        var bytes = bytes
        switch random.next() % 4 {
        case 0 where !bytes.isEmpty:
            let index = Int.random(in: 0..<bytes.count, using: &random)
            bytes[index] ^= UInt8(1 << (random.next() % 8))
        case 1 where !bytes.isEmpty:
            bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
        case 2:
            bytes.insert(
                UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random)
            )
        default:
            bytes += bytes.prefix(Int.random(in: 0...bytes.count, using: &random))
        }
        return bytes
    }

    func survivesMutations<M: ProtoMessage>(of message: M, seed: UInt64) throws {
        var random = Generator(state: seed)
        let valid = try message.serializedBytes()
        for _ in 0..<3000 {
            let bytes = Self.mutate(Self.mutate(valid, using: &random), using: &random)
            guard let decoded = try? M(serializedBytes: bytes) else { continue }
            // Bytes, not messages, are compared: a flipped bit can make a double NaN, which equals nothing.
            let reencoded = try decoded.serializedBytes()
            #expect(try M(serializedBytes: reencoded).serializedBytes() == reencoded)
        }
    }

    @Test func reflectionResponses() throws {
        let response = Grpc_Reflection_V1_ServerReflectionResponse(
            validHost: "host", originalRequest: .init(host: "h", messageRequest: .fileByFilename("a.proto")),
            messageResponse: .fileDescriptorResponse(.init(fileDescriptorProto: [[1, 2, 3], []])))
        try survivesMutations(of: response, seed: 1)
    }

    @Test func interopRequests() throws {
        let request = Grpc_Testing_StreamingOutputCallRequest(
            responseParameters: [.init(size: 3, intervalUs: -1, compressed: .init(value: true))],
            payload: .init(body: [0, 1, 2]), responseStatus: .init(code: 2, message: "ü"),
            orcaOobReport: .init(cpuUtilization: 1, requestCost: ["a": 2]))
        try survivesMutations(of: request, seed: 2)
    }

    @Test func statusWithDetails() throws {
        let status = Google_Rpc_Status(
            code: 3, message: "m",
            details: [
                try .init(packing: Google_Rpc_ErrorInfo(reason: "R", domain: "d", metadata: ["k": "v"]))
            ])
        try survivesMutations(of: status, seed: 3)
    }
}
