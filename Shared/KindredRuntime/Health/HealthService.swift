import KindredAPI
import KindredMessages
import KindredRPC

/// `grpc.health.v1.Health`, answered from a status board, so that grpc_health_probe, Kubernetes gRPC
/// probes and load balancers see what the process knows about itself.
struct HealthService: Grpc_Health_V1_Health.Service {
    let board: HealthStatusBoard
    /// Probes and tools call it without a token.
    let publicMethods = MethodSet.all

    func check(
        _ request: Grpc_Health_V1_HealthCheckRequest, context: ServerContext
    ) async throws -> Grpc_Health_V1_HealthCheckResponse {
        guard let status = board.status(of: request.service) else {
            throw RPCError(.notFound, "This server has no service named \"\(request.service)\".")
        }
        return Grpc_Health_V1_HealthCheckResponse(status: status.wireValue)
    }

    func watch(
        _ request: Grpc_Health_V1_HealthCheckRequest,
        responses: ResponseStreamWriter<Grpc_Health_V1_HealthCheckResponse>,
        context: ServerContext
    ) async throws {
        // The protocol says an unknown service is reported as SERVICE_UNKNOWN, not as an error,
        // and the stream stays open in case it appears later.
        for await status in board.watch(request.service) {
            try await responses.write(.init(status: status?.wireValue ?? .serviceUnknown))
        }
        // The board ends its watches only when the process drains.
        throw RPCError.serverShuttingDown
    }
}

extension HealthStatusBoard.Status {
    var wireValue: Grpc_Health_V1_HealthCheckResponse.ServingStatus {
        switch self {
        case .serving: .serving
        case .notServing: .notServing
        }
    }
}
