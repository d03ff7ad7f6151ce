/// Names one RPC method: its fully-qualified service and method names, and the HTTP/2 `:path`.
public struct MethodDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// Fully-qualified service name, e.g. `grpc.health.v1.Health`.
    public let service: String
    /// Method name, e.g. `Check`.
    public let method: String
    /// The request path, `/service/method`.
    public let path: String
    /// Whether the method changes nothing (`idempotency_level = NO_SIDE_EFFECTS` in the proto), so a
    /// read-only caller (a child-mode token) may call it.
    public let isReadOnly: Bool

    /// Creates a descriptor from a service and method name.
    public init(service: String, method: String, readOnly: Bool = false) {
        self.service = service
        self.method = method
        self.path = "/\(service)/\(method)"
        self.isReadOnly = readOnly
    }

    // A method is its path; how it is marked does not make it another method.
    public static func == (lhs: MethodDescriptor, rhs: MethodDescriptor) -> Bool { lhs.path == rhs.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }

    public var description: String { path }
}

/// A set of RPC methods a server can serve.
public protocol RPCService: Sendable {
    /// Adds this service's methods to the router.
    func registerMethods(with router: inout RPCRouter)

    /// The methods callers may reach without an access token. Authentication is deny-by-default: every
    /// method not listed here needs a valid token, checked before its handler runs.
    var publicMethods: MethodSet { get }

    /// The methods not marked `NO_SIDE_EFFECTS` that a `child_readonly` token may still call: the way out of
    /// child mode, which needs its own proof. Every other such method refuses child mode.
    var childModeMethods: MethodSet { get }
}

extension RPCService {
    /// None: every method needs a valid token.
    public var publicMethods: MethodSet { [] }

    /// None: a child-mode token may call only the methods that change nothing.
    public var childModeMethods: MethodSet { [] }
}
