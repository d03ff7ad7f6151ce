import KindredAPI
import KindredMessages
import KindredRPC

/// `grpc.reflection.v1alpha` is v1 under an older package name: the same messages with the same field
/// numbers, so its wire bytes decode as v1's and one implementation serves both paths.
struct ReflectionV1AlphaService: RPCService {
    let v1: ReflectionService
    /// Tools (grpcurl, IDEs) call it without a token.
    let publicMethods = MethodSet.all

    func registerMethods(with router: inout RPCRouter) {
        router.registerBidirectionalStreaming(
            Grpc_Reflection_V1alpha_ServerReflection.Method.serverReflectionInfo
        ) {
            (
                requests: RequestStream<Grpc_Reflection_V1_ServerReflectionRequest>,
                responses: ResponseStreamWriter<Grpc_Reflection_V1_ServerReflectionResponse>, context
            ) in
            try await v1.serverReflectionInfo(requests, responses: responses, context: context)
        }
    }
}
