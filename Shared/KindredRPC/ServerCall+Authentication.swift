import KindredAuth

/// The deny-by-default policy, applied once per call by the transport, never by handlers: a protected
/// method's handler runs only for a valid token that may act on it.
extension ServerCall {
    /// Judges the call's token with the keys already loaded, as soon as its headers are in: the answer
    /// that ends a protected call at once, or admission (after a key refresh if the token names a key not
    /// loaded yet).
    func authenticateFromHeaders() -> ServerCallState.HeadersVerdict {
        if let peerRefusal { return .refusal(peerRefusal) }
        if let token = BearerToken.find(in: head.metadata) {
            if let authenticator = core.configuration.authenticator {
                switch authenticator.verifyWithLoadedKeys(token) {
                case .success(let caller):
                    authentication = CallAuthentication(caller, calling: route)
                case .failure(.unknownKeyID):
                    // Keys not loaded yet, or rotated at identity: only a fetch can tell, and it may suspend.
                    return .accepted(streamingRequest: route.streamingRequest, awaitsKeyRefresh: true)
                case .failure(let reason):
                    authentication = .refused(reason)
                }
            } else {
                authentication = .unverifiable
            }
        } else {
            authentication = .missing
        }
        if let refusal = verdict { return .refusal(refusal) }
        return .accepted(streamingRequest: route.streamingRequest, awaitsKeyRefresh: false)
    }

    /// Settles what the headers could not, in the handler's task: loads fresh keys, judges the token again,
    /// and throws the answer that ends a protected call.
    func authenticateAfterKeyRefresh() async throws(RPCError) {
        guard let authenticator = core.configuration.authenticator,
            let token = BearerToken.find(in: head.metadata)
        else { return }
        let outcome: Result<Caller, TokenAuthenticationError>
        do {
            outcome = .success(try await authenticator.authenticate(token))
        } catch {
            outcome = .failure(error)
        }
        authentication = CallAuthentication(outcome, calling: route)
        switch state.keysRefreshed(refusal: verdict) {
        case .runHandler: break
        case .refuse(let refusal): throw refusal
        case .callEnded:
            // The deadline passed, or the client left, during the fetch: the handler must not start.
            throw RPCError(.cancelled, "The call ended before it could be authorized.")
        }
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
