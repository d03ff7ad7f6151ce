import KindredAPI
import KindredMessages
import KindredRPC

/// `grpc.testing.TestService` as gRPC's interop test descriptions define it, so that stock clients
/// can run the standard interop cases against Kindred's runtime.
struct InteropTestService: Grpc_Testing_TestService.Service {
    /// Public for the interop suite; none with `--require-token`, for the auth tests and benchmark.
    var publicMethods = MethodSet.all

    func emptyCall(_ request: Grpc_Testing_Empty, context: ServerContext) async throws -> Grpc_Testing_Empty {
        Grpc_Testing_Empty()
    }

    func unaryCall(_ request: Grpc_Testing_SimpleRequest, context: ServerContext) async throws
        -> Grpc_Testing_SimpleResponse
    {
        echoMetadata(context)
        try failIfAsked(request.responseStatus)
        context.compressResponse = request.responseCompressed?.value ?? false
        return Grpc_Testing_SimpleResponse(payload: payload(size: request.responseSize))
    }

    func cacheableUnaryCall(
        _ request: Grpc_Testing_SimpleRequest, context: ServerContext
    ) async throws -> Grpc_Testing_SimpleResponse {
        try await unaryCall(request, context: context)
    }

    func streamingOutputCall(
        _ request: Grpc_Testing_StreamingOutputCallRequest,
        responses: ResponseStreamWriter<Grpc_Testing_StreamingOutputCallResponse>, context: ServerContext
    ) async throws {
        echoMetadata(context)
        try await respond(to: request, with: responses)
        try failIfAsked(request.responseStatus)
    }

    func streamingInputCall(
        _ requests: RequestStream<Grpc_Testing_StreamingInputCallRequest>, context: ServerContext
    ) async throws -> Grpc_Testing_StreamingInputCallResponse {
        var total = 0
        for try await request in requests { total += request.payload?.body.count ?? 0 }
        return Grpc_Testing_StreamingInputCallResponse(aggregatedPayloadSize: Int32(total))
    }

    func fullDuplexCall(
        _ requests: RequestStream<Grpc_Testing_StreamingOutputCallRequest>,
        responses: ResponseStreamWriter<Grpc_Testing_StreamingOutputCallResponse>, context: ServerContext
    ) async throws {
        echoMetadata(context)
        for try await request in requests {
            try failIfAsked(request.responseStatus)
            try await respond(to: request, with: responses)
        }
    }

    func halfDuplexCall(
        _ requests: RequestStream<Grpc_Testing_StreamingOutputCallRequest>,
        responses: ResponseStreamWriter<Grpc_Testing_StreamingOutputCallResponse>, context: ServerContext
    ) async throws {
        var buffered: [Grpc_Testing_StreamingOutputCallRequest] = []
        for try await request in requests { buffered.append(request) }
        for request in buffered { try await respond(to: request, with: responses) }
    }

    func unimplementedCall(_ request: Grpc_Testing_Empty, context: ServerContext) async throws
        -> Grpc_Testing_Empty
    {
        throw RPCError(.unimplemented, "UnimplementedCall is never implemented")
    }

    /// Sends one response per `response_parameters` entry, each after its `interval_us`.
    private func respond(
        to request: Grpc_Testing_StreamingOutputCallRequest,
        with responses: ResponseStreamWriter<Grpc_Testing_StreamingOutputCallResponse>
    ) async throws {
        for parameters in request.responseParameters {
            if parameters.intervalUs > 0 {
                try await Task.sleep(for: .microseconds(Int(parameters.intervalUs)))
            }
            try await responses.write(.init(payload: payload(size: parameters.size)))
        }
    }

    private func payload(size: Int32) -> Grpc_Testing_Payload {
        Grpc_Testing_Payload(type: .compressable, body: [UInt8](repeating: 0, count: Int(max(0, size))))
    }

    /// The custom_metadata case: echo these two keys back, one as a header and one as a trailer.
    private func echoMetadata(_ context: ServerContext) {
        if let initial = context.requestMetadata["x-grpc-test-echo-initial"] {
            context.addResponseHeader("x-grpc-test-echo-initial", initial)
        }
        if let trailing = context.requestMetadata[binary: "x-grpc-test-echo-trailing-bin"] {
            context.addResponseTrailer("x-grpc-test-echo-trailing-bin", binary: trailing)
        }
    }

    /// The status_code_and_message case: end the call with the status the client asked for.
    private func failIfAsked(_ status: Grpc_Testing_EchoStatus?) throws {
        guard let status, status.code != 0 else { return }
        throw RPCError(StatusCode(rawValue: Int(status.code)) ?? .unknown, status.message)
    }
}
