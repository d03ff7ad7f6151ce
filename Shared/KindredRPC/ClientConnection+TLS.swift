/// A client connection's TLS handshake: the server verified against the CA (its name or IP in the
/// certificate), ALPN `h2` agreed; a failure is logged once with OpenSSL's reason and fails the waiting calls
/// UNAVAILABLE, and the pool backs off before the next connect.
extension ClientConnection {
    func continueTLSHandshake() {
        guard let tls else { return }
        switch tls.handshake(on: loop, fd: fd) {
        case .waiting:
            break
        case .failed(let failure):
            handshakeFailed(failure.withDetail)
        case .closed:
            handshakeFailed("the server closed the connection during the handshake")
        case .established:
            guard tls.negotiatedH2 else { return handshakeFailed("the server did not agree on ALPN h2") }
            becomeReady()
            // The server's SETTINGS may have come with its last handshake message, already read by OpenSSL.
            if tls.hasBufferedInput { readable() }
        }
    }

    /// The server ended the session with `alert` after the handshake (in TLS 1.3, a refused client certificate):
    /// it spoke, so its calls are not taken for unprocessed and sent again (the next replica would refuse the
    /// same certificate), and the reason is logged as a handshake failure's is.
    func refusedByTLSAlert(_ alert: TLSFailure) {
        session.heardFromServer = true
        logHandshakeFailure(alert.withDetail)
    }

    private func handshakeFailed(_ reason: String) {
        logHandshakeFailure(reason)
        close()
    }

    private func logHandshakeFailure(_ reason: String) {
        logger.warning(
            "TLS handshake with a peer failed", metadata: ["peer": "\(target)", "reason": "\(reason)"])
    }
}
