internal import CCurl

/// A libcurl result for an SMTP dialog, sorted into the outbox's temporary and permanent failures.
struct SMTPFailure {
    /// What libcurl returned.
    var code: CURLcode
    /// The server's last reply code, 0 when it sent none.
    var reply: Int
    /// libcurl's error buffer: the step that failed and, for a refusal, the reply.
    var detail: String
    /// Where the dialog went.
    var server: SMTPServer

    /// Failures a retry will not mend until someone changes a setting or a certificate: the outbox still
    /// retries them, but they are logged as errors.
    private static let permanentCodes: Set<UInt32> = [
        CURLE_LOGIN_DENIED, CURLE_AUTH_ERROR, CURLE_USE_SSL_FAILED, CURLE_PEER_FAILED_VERIFICATION,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT,
    ].map(\.rawValue).reduce(into: []) { $0.insert($1) }

    /// The reply to AUTH with a wrong user name or password.
    private static let credentialsInvalid = 535

    /// A 5xx reply, refused credentials, a server without STARTTLS when TLS is required and a certificate
    /// that does not verify are permanent; a 4xx reply, a timeout and a lost connection temporary.
    var error: MailTransportError {
        let description = "SMTP \(server.host):\(server.port): \(explanation)"
        if (500..<600).contains(reply) || Self.permanentCodes.contains(code.rawValue) {
            return .permanent(description)
        }
        return .temporary(description)
    }

    private var explanation: String {
        var what = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if reply != 0, !what.contains(String(reply)) { what += ", the server's last reply was \(reply)" }
        // 535 is RFC 4954's "credentials invalid" whichever step libcurl names as the one that failed.
        if code == CURLE_LOGIN_DENIED || reply == Self.credentialsInvalid {
            return "the server refused the user name or password (\(what))"
        }
        switch code {
        case CURLE_USE_SSL_FAILED: return "the server does not offer STARTTLS, which is required (\(what))"
        case CURLE_PEER_FAILED_VERIFICATION: return "the server's certificate does not verify (\(what))"
        default: return what
        }
    }
}
