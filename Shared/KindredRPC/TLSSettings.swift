internal import CSSL

/// TLS on a server's listener: TLS 1.3 only, ALPN `h2` required, the certificate chain and key read from
/// PEM files (and read again on `RPCServer.reloadTLS()` or when the files change, for new handshakes only).
public struct ServerTLSSettings: Sendable, Equatable {
    /// The server's certificate chain, PEM, leaf first.
    public var certificateFile: String
    /// The certificate's private key, PEM.
    public var privateKeyFile: String
    /// When set, mutual TLS: every client must present a certificate issued by one of these CAs (PEM),
    /// and `peerRules` are enforced against its subject alternative names.
    public var clientCAFile: String?
    /// Which callers may call which methods, by the names in their client certificate.
    public var peerRules: [PeerRule] = []

    public init(certificateFile: String, privateKeyFile: String, clientCAFile: String? = nil) {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.clientCAFile = clientCAFile
    }

    /// Whether clients must present a verified certificate.
    var requiresClientCertificates: Bool { clientCAFile != nil }
}

/// TLS for an `RPCClient`: TLS 1.3, ALPN `h2`, the server verified against a CA file (its name or IP must
/// be in the certificate), and optionally a client certificate for mutual TLS.
public struct ClientTLSSettings: Sendable, Equatable {
    /// The CAs a server's certificate must chain to, PEM.
    public var caFile: String
    /// The client's own certificate chain, PEM, for servers that require one.
    public var certificateFile: String?
    /// The client certificate's private key, PEM.
    public var privateKeyFile: String?

    public init(caFile: String, certificateFile: String? = nil, privateKeyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
    }
}

/// Methods only some callers may reach over mutual TLS: a caller whose certificate names none of
/// `allowedNames` (DNS or URI subject alternative names) is refused PERMISSION_DENIED before the handler
/// runs, whatever its token. Enforced only on a server that requires client certificates.
public struct PeerRule: Sendable, Equatable {
    /// The full method paths the rule covers, e.g. `/kindred.identity.v1.IdentityService/IssueDeviceModeTokens`.
    public var methods: Set<String>
    /// The certificate names allowed to call them, e.g. `kindred-family`.
    public var allowedNames: Set<String>

    public init(methods: [MethodDescriptor], allowedNames: Set<String>) {
        self.methods = Set(methods.map(\.path))
        self.allowedNames = allowedNames
    }
}

/// A TLS setting that cannot be used: a file that does not load, a key that does not match its certificate.
public struct TLSError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ what: String) {
        description = "\(what): \(TLSError.drainOpenSSLErrors())"
    }

    /// OpenSSL's queued errors for this thread, oldest first, and clears the queue.
    static func drainOpenSSLErrors() -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            reasons.append(text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return reasons.isEmpty ? "no detail from OpenSSL" : reasons.joined(separator: "; ")
    }
}
