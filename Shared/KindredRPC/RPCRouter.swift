public import KindredMessages

/// The methods a server answers, by `:path`, each with its handler and request size limit.
public struct RPCRouter: Sendable {
    var routes: [String: Route] = [:]

    /// Creates an empty router.
    public init() {}

    /// The registered methods, in no particular order.
    public var methods: [MethodDescriptor] { routes.values.map(\.descriptor) }

    /// Registers a method taking one request and returning one response.
    public mutating func registerUnary<Request: ProtoMessage, Response: ProtoMessage>(
        _ method: MethodDescriptor, maxRequestSize: Int? = nil,
        handler: @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) {
        add(method, maxRequestSize, streamingRequest: false) { call, context in
            let request: Request = try call.decodeSingleRequest()
            let response = try await handler(request, context)
            try call.sendFinal(Self.encode(response))
        }
    }

    /// Registers a method taking one request and writing a stream of responses.
    public mutating func registerServerStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ method: MethodDescriptor, maxRequestSize: Int? = nil,
        handler:
            @escaping @Sendable (Request, ResponseStreamWriter<Response>, ServerContext) async throws -> Void
    ) {
        add(method, maxRequestSize, streamingRequest: false, streamingResponse: true) { call, context in
            let request: Request = try call.decodeSingleRequest()
            call.announceResponse()
            try await handler(request, ResponseStreamWriter(call: call), context)
        }
    }

    /// Registers a method reading a stream of requests and returning one response.
    public mutating func registerClientStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ method: MethodDescriptor, maxRequestSize: Int? = nil,
        handler: @escaping @Sendable (RequestStream<Request>, ServerContext) async throws -> Response
    ) {
        add(method, maxRequestSize, streamingRequest: true) { call, context in
            let response = try await handler(RequestStream(call: call), context)
            try call.sendFinal(Self.encode(response))
        }
    }

    /// Registers a method reading a stream of requests while writing a stream of responses.
    public mutating func registerBidirectionalStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ method: MethodDescriptor, maxRequestSize: Int? = nil,
        handler:
            @escaping @Sendable (RequestStream<Request>, ResponseStreamWriter<Response>, ServerContext)
            async throws -> Void
    ) {
        add(method, maxRequestSize, streamingRequest: true, streamingResponse: true) { call, context in
            try await handler(RequestStream(call: call), ResponseStreamWriter(call: call), context)
        }
    }

    /// Registers every method of a service, public or protected as the service declares.
    public mutating func register(_ service: some RPCService) {
        var own = RPCRouter()
        service.registerMethods(with: &own)
        let publicMethods = service.publicMethods
        let childModeMethods = service.childModeMethods
        for (kind, declared) in [("public", publicMethods), ("child-mode", childModeMethods)] {
            let unregistered = declared.unregistered(among: own.routes.keys)
            precondition(
                unregistered.isEmpty,
                "\(type(of: service)) declares \(kind) methods it does not serve: \(unregistered.sorted())")
        }
        for (path, var route) in own.routes {
            route.isPublic = publicMethods.contains(route.descriptor)
            route.allowsChildMode = route.allowsChildMode || childModeMethods.contains(route.descriptor)
            routes[path] = route
        }
    }

    private mutating func add(
        _ method: MethodDescriptor, _ maxRequestSize: Int?, streamingRequest: Bool,
        streamingResponse: Bool = false,
        body: @escaping @Sendable (ServerCall, ServerContext) async throws -> Void
    ) {
        routes[method.path] = Route(
            descriptor: method, maxRequestSize: maxRequestSize, streamingRequest: streamingRequest,
            streamingResponse: streamingResponse, body: body)
    }

    static func encode(_ message: some ProtoMessage) throws -> [UInt8] {
        do {
            return try message.serializedBytes()
        } catch {
            throw InternalFailure("encoding \(type(of: message).protoMessageName): \(error)")
        }
    }
}

/// One registered method, erased to the transport's view of it.
struct Route: Sendable {
    let descriptor: MethodDescriptor
    let maxRequestSize: Int?
    /// Whether the client streams requests, so the handler starts before the request ends.
    let streamingRequest: Bool
    /// Whether the server streams responses.
    let streamingResponse: Bool
    let body: @Sendable (ServerCall, ServerContext) async throws -> Void
    /// Whether callers may reach the method without a valid token (see `RPCService.publicMethods`).
    var isPublic = false
    /// Whether a `child_readonly` token may call it: it changes nothing, or the service lets child mode call
    /// it (see `RPCService.childModeMethods`).
    var allowsChildMode: Bool
    /// Its calls, durations and handlers in flight; each server gives its routes their own.
    var metrics: MethodMetrics
    /// A health check or reflection: counted, not access-logged unless `AccessLogSettings.logsProbes`.
    let isProbe: Bool

    init(
        descriptor: MethodDescriptor, maxRequestSize: Int?, streamingRequest: Bool, streamingResponse: Bool,
        body: @escaping @Sendable (ServerCall, ServerContext) async throws -> Void
    ) {
        self.descriptor = descriptor
        self.maxRequestSize = maxRequestSize
        self.streamingRequest = streamingRequest
        self.streamingResponse = streamingResponse
        self.body = body
        allowsChildMode = descriptor.isReadOnly
        metrics = MethodMetrics(method: descriptor.path)
        isProbe = AccessLogSettings.probeServices.contains(descriptor.service)
    }
}

/// A failure inside the transport that ends the call with INTERNAL; the description goes only to the log.
struct InternalFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
