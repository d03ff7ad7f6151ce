import KindredAuth

/// The deny-by-default policy, applied once per call by the transport, never by handlers: a protected
/// method's handler runs only for a valid token that may act on it.
extension ServerCall {
    /// Judges the call's token with the keys already loaded, as soon as its headers are in: the answer
    /// that ends a protected call at once, or nil when it goes on (after a key refresh if
    /// `awaitsKeyRefresh`).
    func authenticateFromHeaders() -> RPCError? {
        guard let token = BearerToken.find(in: head.metadata) else {
            authentication = .missing
            return verdict
        }
        guard let authenticator = core.configuration.authenticator else {
            authentication = .unverifiable
            return verdict
        }
        switch authenticator.verifyWithLoadedKeys(token) {
        case .success(let caller):
            authentication = CallAuthentication(caller, calling: route)
        case .failure(.unknownKeyID):
            // Keys not loaded yet, or rotated at identity: only a fetch can tell, and it may suspend.
            awaitsKeyRefresh = true
            return nil
        case .failure(let reason):
            authentication = .refused(reason)
        }
        return verdict
    }

    /// Settles what the headers could not, in the handler's task: loads fresh keys, judges the token again,
    /// and throws the answer that ends a protected call.
    func authenticateAfterKeyRefresh() async throws(RPCError) {
        awaitsKeyRefresh = false
        guard let authenticator = core.configuration.authenticator,
            let token = BearerToken.find(in: head.metadata)
        else { return }
        let outcome: Result<Caller, TokenAuthenticationError>
        do {
            outcome = .success(try await authenticator.authenticate(token))
        } catch {
            outcome = .failure(error)
        }
        // The deadline may have passed, or the client left, during the fetch: the handler must not start.
        guard !lifecycle.isFinished else {
            throw RPCError(.cancelled, "The call ended before it could be authorized.")
        }
        authentication = CallAuthentication(outcome, calling: route)
        if let refusal = verdict { throw refusal }
    }

    /// A public method runs whatever the token was; a protected one only for an authenticated caller.
    private var verdict: RPCError? {
        route.isPublic ? nil : authentication.refusal
    }
}

/// The token of an `authorization: Bearer <token>` header (RFC 6750 §2.1; the scheme is case-insensitive).
enum BearerToken {
    static func find(in metadata: Metadata) -> Substring? {
        guard let value = metadata["authorization"] else { return nil }
        let utf8 = value.utf8
        guard let space = utf8.firstIndex(of: UInt8(ascii: " ")),
            utf8[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 })
        else { return nil }
        let token = value[space...].drop { $0 == " " }
        return token.isEmpty ? nil : token
    }
}
