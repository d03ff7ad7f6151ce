import KindredAPI
import KindredMessages
import KindredRPC

/// gRPC server reflection, v1 and its older v1alpha twin (grpcurl and some clients still ask for
/// v1alpha): each request is translated to a `ReflectionQuery`, answered by one index, and dressed
/// back in that version's messages.
struct ReflectionService: Grpc_Reflection_V1_ServerReflection.Service {
    let index: ReflectionIndex
    /// Tools (grpcurl, IDEs) call it without a token.
    let publicMethods = MethodSet.all

    func serverReflectionInfo(
        _ requests: RequestStream<Grpc_Reflection_V1_ServerReflectionRequest>,
        responses: ResponseStreamWriter<Grpc_Reflection_V1_ServerReflectionResponse>,
        context: ServerContext
    ) async throws {
        for try await request in requests {
            try await responses.write(response(to: request))
        }
    }

    func response(to request: Grpc_Reflection_V1_ServerReflectionRequest)
        -> Grpc_Reflection_V1_ServerReflectionResponse
    {
        let query: ReflectionQuery =
            switch request.messageRequest {
            case .fileByFilename(let name): .fileByFilename(name)
            case .fileContainingSymbol(let symbol): .fileContainingSymbol(symbol)
            case .fileContainingExtension(let ext):
                .fileContainingExtension(containingType: ext.containingType, number: ext.extensionNumber)
            case .allExtensionNumbersOfType(let type): .allExtensionNumbers(ofType: type)
            case .listServices: .listServices
            case nil: .missing
            }
        var response = Grpc_Reflection_V1_ServerReflectionResponse(
            validHost: request.host, originalRequest: request)
        switch index.answer(query) {
        case .services(let names):
            response.messageResponse = .listServicesResponse(.init(service: names.map { .init(name: $0) }))
        case .files(let files):
            response.messageResponse = .fileDescriptorResponse(.init(fileDescriptorProto: files))
        case .extensionNumbers(let type, let numbers):
            response.messageResponse = .allExtensionNumbersResponse(
                .init(baseTypeName: type, extensionNumber: numbers))
        case .error(let code, let message):
            response.messageResponse = .errorResponse(
                .init(errorCode: Int32(code.rawValue), errorMessage: message))
        }
        return response
    }
}
