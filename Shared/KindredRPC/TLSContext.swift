#if canImport(Glibc)
import Glibc
#endif
internal import CSSL

/// One OpenSSL `SSL_CTX`, configured once and then only read: TLS 1.3 only, ALPN `h2`, certificates loaded.
/// Connections take a new `SSL` from it; a reload builds a new context, and connections made from the old
/// one keep it alive until they close (OpenSSL reference-counts it).
final class TLSContext: @unchecked Sendable {
    // @unchecked: after init the context is never changed, and SSL_new on it is thread-safe.
    let context: OpaquePointer
    let isServer: Bool

    private init(isServer: Bool) throws(TLSError) {
        guard let context = SSL_CTX_new(isServer ? TLS_server_method() : TLS_client_method()) else {
            throw TLSError("cannot create a TLS context")
        }
        self.context = context
        self.isServer = isServer
        // OpenSSL writes the socket with write(2), not send(MSG_NOSIGNAL): a peer that went away would raise
        // SIGPIPE and kill the process instead of failing the write.
        signal(SIGPIPE, SIG_IGN)
        guard CSSL_requireTLS13(context) == 1 else { throw TLSError("cannot require TLS 1.3") }
        CSSL_allowPartialWrites(context)
        CSSL_readAhead(context)
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A server context from `settings`: its certificate and key, and the client CAs for mutual TLS.
    static func server(_ settings: ServerTLSSettings) throws(TLSError) -> TLSContext {
        let tls = try TLSContext(isServer: true)
        try tls.loadIdentity(certificate: settings.certificateFile, key: settings.privateKeyFile)
        CSSL_serverSelectsH2(tls.context)
        if let clientCAFile = settings.clientCAFile {
            try tls.trust(clientCAFile)
            SSL_CTX_set_verify(tls.context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
        return tls
    }

    /// A client context from `settings`: servers verified against the CA file, an optional client certificate.
    static func client(_ settings: ClientTLSSettings) throws(TLSError) -> TLSContext {
        let tls = try TLSContext(isServer: false)
        try tls.trust(settings.caFile)
        SSL_CTX_set_verify(tls.context, SSL_VERIFY_PEER, nil)
        guard CSSL_clientOffersH2(tls.context) == 1 else { throw TLSError("cannot offer ALPN h2") }
        switch (settings.certificateFile, settings.privateKeyFile) {
        case (let certificate?, let key?): try tls.loadIdentity(certificate: certificate, key: key)
        case (nil, nil): break
        default: throw TLSError("a client certificate needs both its certificate and its key file")
        }
        return tls
    }

    private func loadIdentity(certificate: String, key: String) throws(TLSError) {
        guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
            throw TLSError("cannot load the certificate \(certificate)")
        }
        guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError("cannot load the private key \(key)")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError("the private key \(key) does not match the certificate \(certificate)")
        }
    }

    private func trust(_ caFile: String) throws(TLSError) {
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
            throw TLSError("cannot load the CA file \(caFile)")
        }
    }
}
