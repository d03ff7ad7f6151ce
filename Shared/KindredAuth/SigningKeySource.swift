/// Where a service's verifier gets the public keys that sign access tokens.
///
/// Identity reads its own table; every other service asks identity's `GetSigningKeys`. Called on first use
/// and again when a token names a key the verifier does not know (see `TokenAuthenticator`).
public protocol SigningKeySource: Sendable {
    /// Every key that may have signed a token still valid; throws when they cannot be had right now.
    func verificationKeys() async throws -> [VerificationKey]
}

/// A fixed list of keys: for tests, benchmarks and tools that hold the keys themselves.
public struct FixedSigningKeys: SigningKeySource {
    /// The keys handed out on every call.
    public let keys: [VerificationKey]

    /// A source that always answers `keys`.
    public init(_ keys: [VerificationKey]) {
        self.keys = keys
    }

    public func verificationKeys() async throws -> [VerificationKey] { keys }
}
