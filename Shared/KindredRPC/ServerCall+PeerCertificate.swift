/// Mutual TLS's allow-lists (`PeerRule`): on a covered method the caller's certificate must name an allowed
/// peer. Checked before the token, and in addition to it: the certificate says which workload is calling,
/// the token (a service's client_credentials) what role it acts in; a covered method needs both.
extension ServerCall {
    /// The answer to a caller whose certificate names no peer allowed on this method; nil when it may go on.
    var peerRefusal: RPCError? {
        guard let allowed = core.peerRules[route.descriptor.path],
            !connection.peerNames.contains(where: allowed.contains)
        else { return nil }
        return .authentication(
            .permissionDenied, AuthenticationReason.peerNotAllowed,
            "This caller is not allowed to use this method.")
    }
}
