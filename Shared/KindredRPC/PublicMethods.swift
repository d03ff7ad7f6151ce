/// The methods of a service that answer callers without an access token; every other method needs one.
///
/// A service declares its public surface in one place, its `publicMethods`:
///
/// ```swift
/// struct Identity: Kindred_Identity_V1_IdentityService.Service {
///     var publicMethods: PublicMethods {
///         [Method.registerAccount, Method.token, Method.getSigningKeys]
///     }
/// }
/// ```
public struct PublicMethods: Sendable, ExpressibleByArrayLiteral {
    // nil: every method of the service.
    private let paths: Set<String>?

    /// These methods are public; the rest of the service needs a token.
    public init(_ methods: some Sequence<MethodDescriptor>) {
        paths = Set(methods.map(\.path))
    }

    /// These methods are public; the rest of the service needs a token.
    public init(arrayLiteral methods: MethodDescriptor...) {
        self.init(methods)
    }

    private init(everyMethod: Void) {
        paths = nil
    }

    /// Every method of the service is public: health, reflection, test services.
    public static let all = PublicMethods(everyMethod: ())

    /// Whether `method` is public.
    public func contains(_ method: MethodDescriptor) -> Bool {
        paths?.contains(method.path) ?? true
    }

    /// The named methods that are not among `registered`: a typo, or a method the service forgot to serve.
    func unregistered(among registered: some Sequence<String>) -> Set<String> {
        paths?.subtracting(registered) ?? []
    }
}
