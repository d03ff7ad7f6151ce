internal import CLinuxSystem

/// The TLS handshake of a connection on a TLS listener: TLS 1.3 and ALPN `h2` or nothing, each refusal one
/// log line in words (a few a second, then a summary). The HTTP/2 handshake deadline (`ConnectionState.accepted`)
/// covers this one too.
extension Connection {
    /// Runs the handshake as far as the socket allows; once it is done the server's SETTINGS go out.
    func continueTLSHandshake(_ tls: TLSStream) {
        switch tls.handshake(on: loop, fd: fd) {
        case .waiting:
            break
        case .failed(let failure):
            refuseTLS(failure)
        case .closed:
            core.logger.debug("a client left during the TLS handshake", metadata: ["peer": "\(peer)"])
            close()
        case .established:
            loop.modify(fd: fd, events: EPOLLIN.rawValue)
            guard tls.negotiatedH2 else {
                return refuseTLS(TLSFailure(kind: .noH2, detail: "the client offered no ALPN h2"))
            }
            peerNames = tls.peerNames
            // The SETTINGS go out before any request is read, as on h2c: a client takes a connection that closed
            // before the server's first bytes for one that processed nothing (`HTTP2ClientSession.failAllStreams`).
            flush()
            // The client's HTTP/2 preface may have arrived with its Finished message, already read by OpenSSL.
            readable()
        }
    }

    /// One line for a refused handshake (a plaintext or TLS 1.2 client, no ALPN h2, no or an untrusted client
    /// certificate), then close.
    private func refuseTLS(_ failure: TLSFailure) {
        core.accessLog.connectionRefused(
            "refused a TLS handshake", kind: failure.kind.rawValue, level: failure.kind.level,
            metadata: ["peer": "\(peer)", "reason": "\(failure)", "detail": "\(failure.detail)"], on: loop)
        close()
    }
}
