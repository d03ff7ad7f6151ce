import KindredMessages
import KindredRPC
@testable import KindredRuntime
import Testing

/// The four services as server reflection describes them, and a client that calls any of their methods with
/// a request built from field paths.
struct MatrixServer: Sendable {
    static let services = [
        "kindred.identity.v1.IdentityService", "kindred.family.v1.FamilyService",
        "kindred.social.v1.SocialService",
        "kindred.gamification.v1.GamificationService",
    ]

    let descriptors: ProtoDescriptors
    /// Every method reflection lists for the four services, by `Service/Method` (`FamilyService/GetHome`).
    let methods: [String: ProtoDescriptors.Method]
    let client: MatrixClient

    /// Asks the reflection index every Kindred process serves (`StandardServices`) for each service's file.
    init(clients: [String: RPCClient]) throws {
        let reflection = ReflectionService(index: ReflectionIndex(servedServices: Self.services))
        var files: [[UInt8]] = []
        for service in Self.services {
            var request = Grpc_Reflection_V1_ServerReflectionRequest()
            request.messageRequest = .fileContainingSymbol(service)
            guard case .fileDescriptorResponse(let found)? = reflection.response(to: request).messageResponse
            else { throw WireReader.Malformed() }
            files += found.fileDescriptorProto
        }
        descriptors = try ProtoDescriptors(files: files)
        methods = Dictionary(
            descriptors.methods.filter { Self.services.contains($0.service) }.map {
                ("\($0.service.split(separator: ".").last!)/\($0.name)", $0)
            }, uniquingKeysWith: { first, _ in first })
        client = MatrixClient(clients: clients)
    }

    /// Calls `method` (`Service/Method`) with a request of `fields`.
    func call(
        _ method: String, _ fields: [String: FieldValue], token: String?,
        streamWait: Duration = MatrixClient.openStreamWait
    ) async throws -> Answer {
        let served = try #require(methods[method], "reflection lists no \(method)")
        let request = try RequestEncoder(descriptors: descriptors).encode(fields, as: served.inputType)
        return await client.call(served, request: request, token: token, streamWait: streamWait)
    }
}
