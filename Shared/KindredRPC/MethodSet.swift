/// Some methods of a service, named in one declaration: which answer callers without an access token
/// (`RPCService.publicMethods`), which a child-mode token may call though they change something
/// (`RPCService.childModeMethods`).
///
/// A service declares its public surface in one place, its `publicMethods`:
///
/// ```swift
/// struct Identity: Kindred_Identity_V1_IdentityService.Service {
///     var publicMethods: MethodSet {
///         [Method.registerAccount, Method.token, Method.getSigningKeys]
///     }
/// }
/// ```
public struct MethodSet: Sendable, ExpressibleByArrayLiteral {
    // nil: every method of the service.
    private let paths: Set<String>?

    /// Exactly these methods.
    public init(_ methods: some Sequence<MethodDescriptor>) {
        paths = Set(methods.map(\.path))
    }

    /// Exactly these methods.
    public init(arrayLiteral methods: MethodDescriptor...) {
        self.init(methods)
    }

    private init(everyMethod: Void) {
        paths = nil
    }

    /// Every method of the service: public ones for health, reflection, test services.
    public static let all = MethodSet(everyMethod: ())

    /// Whether `method` is among them.
    public func contains(_ method: MethodDescriptor) -> Bool {
        paths?.contains(method.path) ?? true
    }

    /// The named methods that are not among `registered`: a typo, or a method the service forgot to serve.
    func unregistered(among registered: some Sequence<String>) -> Set<String> {
        paths?.subtracting(registered) ?? []
    }
}
