internal import CSSL
internal import Logging

/// Why a TLS handshake failed, in words an operator reads at a glance ("a plaintext client connected to the
/// TLS port", not `0A00010B:SSL routines::wrong version number`), with OpenSSL's own text kept beside it.
struct TLSFailure: Equatable, CustomStringConvertible {
    enum Kind: String, CaseIterable {
        case plaintext = "tls_plaintext_client"
        case oldVersion = "tls_version"
        case noH2 = "tls_no_alpn_h2"
        case noClientCertificate = "tls_no_client_certificate"
        case untrustedPeer = "tls_untrusted_peer_certificate"
        case ownCertificateRefused = "tls_own_certificate_refused"
        case noSharedParameters = "tls_no_shared_cipher"
        case other = "tls_other"
    }

    let kind: Kind
    /// OpenSSL's error queue as text (and the certificate check's verdict), for whoever debugs the peer.
    let detail: String

    var description: String { kind.sentence }

    /// The sentence with OpenSSL's text after it, for a client's one warning about a server it cannot reach.
    var withDetail: String { "\(kind.sentence) [\(detail)]" }

    /// The kind of OpenSSL reason `code` (from `ERR_peek_error`).
    static func kind(ofReason code: UInt) -> Kind {
        switch Int32(ERR_GET_REASON(code)) {
        case SSL_R_WRONG_VERSION_NUMBER, SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST: .plaintext
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION: .oldVersion
        case SSL_R_NO_APPLICATION_PROTOCOL, SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL: .noH2
        case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE, SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
            .noClientCertificate
        case SSL_R_CERTIFICATE_VERIFY_FAILED: .untrustedPeer
        case SSL_R_TLSV1_ALERT_UNKNOWN_CA, SSL_R_SSLV3_ALERT_BAD_CERTIFICATE: .ownCertificateRefused
        case SSL_R_NO_SHARED_CIPHER, SSL_R_NO_SHARED_GROUPS: .noSharedParameters
        default: .other
        }
    }

    /// Whether OpenSSL's reason `code` is an alert the peer sent (OpenSSL numbers them from
    /// `SSL_AD_REASON_OFFSET`, one reason per alert).
    static func isAlert(_ code: UInt) -> Bool {
        (SSL_AD_REASON_OFFSET..<SSL_AD_REASON_OFFSET + 256).contains(Int32(ERR_GET_REASON(code)))
    }

    /// Whether OpenSSL's reason `code` is the peer closing mid-handshake: a probe or a client giving up.
    static func isPeerClosing(_ code: UInt) -> Bool {
        Int32(ERR_GET_REASON(code)) == SSL_R_UNEXPECTED_EOF_WHILE_READING
    }
}

extension TLSFailure.Kind {
    var sentence: String {
        switch self {
        case .plaintext: "a plaintext client connected to the TLS port (its first bytes are not TLS)"
        case .oldVersion: "the peer offers only TLS 1.2 or older; TLS 1.3 is required"
        case .noH2: "the peer's ALPN offer has no h2"
        case .noClientCertificate: "no client certificate; mutual TLS requires one"
        case .untrustedPeer: "the peer's certificate is not trusted"
        case .ownCertificateRefused: "the peer does not trust this side's certificate"
        case .noSharedParameters: "the peer offers no cipher suite or key exchange group this side accepts"
        case .other: "the TLS handshake failed"
        }
    }

    /// The server's log level for a refusal of this kind: the client's mistakes are `notice`; a peer refusing
    /// the server's own certificate is likely the server's (an expired or wrong certificate), so `warning`.
    var level: Logger.Level { self == .ownCertificateRefused ? .warning : .notice }
}
