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

    private func handshakeFailed(_ reason: String) {
        logger.warning(
            "TLS handshake with a peer failed", metadata: ["peer": "\(target)", "reason": "\(reason)"])
        close()
    }
}
