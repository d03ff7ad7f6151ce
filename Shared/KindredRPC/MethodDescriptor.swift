/// Names one RPC method: its fully-qualified service and method names, and the HTTP/2 `:path`.
public struct MethodDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// Fully-qualified service name, e.g. `grpc.health.v1.Health`.
    public let service: String
    /// Method name, e.g. `Check`.
    public let method: String
    /// The request path, `/service/method`.
    public let path: String

    /// Creates a descriptor from a service and method name.
    public init(service: String, method: String) {
        self.service = service
        self.method = method
        self.path = "/\(service)/\(method)"
    }

    public var description: String { path }
}

/// A set of RPC methods a server can serve.
public protocol RPCService: Sendable {
    /// Adds this service's methods to the router.
    func registerMethods(with router: inout RPCRouter)
}
