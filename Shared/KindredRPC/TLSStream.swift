#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem
internal import CSSL

/// One connection's TLS session over its non-blocking socket (OpenSSL reads and writes the socket itself):
/// the handshake, then plaintext in and out with the same contract as `read(2)` and `send(2)`, so the
/// connection's I/O stays on its event loop with no extra copy through memory BIOs.
final class TLSStream {
    private let ssl: OpaquePointer
    /// The context this session came from, kept for as long as the session (a reload swaps only the server's).
    private let context: TLSContext
    private(set) var isEstablished = false
    /// The alert the peer ended the session with once the handshake was over: a TLS 1.3 server refusing this
    /// client's certificate checks it only after the client's side of the handshake ended.
    private(set) var peerAlert: TLSFailure?

    /// How far a handshake step got.
    enum HandshakeStep: Equatable {
        case established
        /// Waiting for the peer's bytes, or for room in a full socket: the loop watches the socket for it.
        case waiting
        /// The handshake failed, for the reason said in words.
        case failed(TLSFailure)
        /// The peer closed the socket (or it broke) without a TLS alert: a probe, a client giving up.
        case closed
    }

    /// A session on `fd`; a client names the server it verifies (`host`: a DNS name or an IP literal).
    init(context: TLSContext, fd: Int32, verifying host: String? = nil) throws(TLSError) {
        guard let ssl = SSL_new(context.context) else { throw TLSError("cannot create a TLS session") }
        self.ssl = ssl
        self.context = context
        guard SSL_set_fd(ssl, fd) == 1 else { throw TLSError("cannot attach the TLS session to its socket") }
        if context.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let host { try verify(host) }
        }
    }

    deinit {
        SSL_free(ssl)
    }

    private func verify(_ host: String) throws(TLSError) {
        let parameters = SSL_get0_param(ssl)
        if X509_VERIFY_PARAM_set1_ip_asc(parameters, host) == 1 { return }
        ERR_clear_error()  // not an IP literal: a name, checked against the DNS names and sent as SNI
        guard X509_VERIFY_PARAM_set1_host(parameters, host, 0) == 1, CSSL_setServerName(ssl, host) == 1 else {
            throw TLSError("cannot verify the server name \(host)")
        }
    }

    /// Runs the handshake as far as the socket allows; when it has to wait, `loop` watches `fd` for the
    /// peer's bytes, and for room to write too when the socket was full. The same for servers and clients.
    func handshake(on loop: EventLoop, fd: Int32) -> HandshakeStep {
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            return .established
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ:
            loop.modify(fd: fd, events: EPOLLIN.rawValue)
            return .waiting
        case SSL_ERROR_WANT_WRITE:
            loop.modify(fd: fd, events: EPOLLIN.rawValue | EPOLLOUT.rawValue)
            return .waiting
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
            return .closed
        case SSL_ERROR_SSL where TLSFailure.isPeerClosing(ERR_peek_error()):
            ERR_clear_error()
            return .closed
        default:
            let kind = TLSFailure.kind(ofReason: ERR_peek_error())
            let verification = SSL_get_verify_result(ssl)
            var detail = TLSError.drainOpenSSLErrors()
            if verification != X509_V_OK {
                detail += " (\(String(cString: X509_verify_cert_error_string(verification))))"
            }
            return .failed(TLSFailure(kind: kind, detail: detail))
        }
    }

    /// Whether the peer agreed on ALPN `h2` (a peer that offered no ALPN at all agreed on nothing).
    var negotiatedH2: Bool {
        var protocolName: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &protocolName, &length)
        guard let protocolName, length == 2 else { return false }
        return protocolName[0] == UInt8(ascii: "h") && protocolName[1] == UInt8(ascii: "2")
    }

    /// The DNS and URI names of the peer's verified certificate; empty without one.
    var peerNames: [String] {
        var buffer = [CChar](repeating: 0, count: 2048)
        let length = CSSL_peerNames(ssl, &buffer, Int32(buffer.count))
        guard length > 0 else { return [] }
        let text = buffer[..<Int(length)].map { UInt8(bitPattern: $0) }
        return text.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Decrypted bytes already read from the socket: the loop must read again without waiting for epoll.
    var hasBufferedInput: Bool { SSL_has_pending(ssl) == 1 }

    /// Fills `buffer` with plaintext, as `read(2)` would: the count, 0 at the peer's close, or -1 with
    /// `errno` EAGAIN when nothing more is ready (any other errno: the connection broke).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = SSL_read(
                ssl, buffer.baseAddress! + filled, Int32(min(buffer.count - filled, Int(Int32.max))))
            if count > 0 {
                filled += Int(count)
                continue
            }
            if filled > 0 { return filled }  // the next call sees the same condition again
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: errno = EAGAIN
            case SSL_ERROR_ZERO_RETURN: return 0
            case SSL_ERROR_SSL where TLSFailure.isAlert(ERR_peek_error()):
                peerAlert = TLSFailure(
                    kind: TLSFailure.kind(ofReason: ERR_peek_error()), detail: TLSError.drainOpenSSLErrors())
                errno = ECONNRESET
            default:
                ERR_clear_error()
                errno = ECONNRESET
            }
            return -1
        }
        return filled
    }

    /// Encrypts and sends as `send(2)` would on a non-blocking socket: bytes taken (possibly fewer than
    /// `count` when the socket is full), or -1 when the connection broke. A retry after a short write must
    /// start with the bytes not taken (SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER allows another address).
    func send(_ start: UnsafeRawPointer, _ count: Int) -> Int {
        var offset = 0
        while offset < count {
            let written = SSL_write(ssl, start + offset, Int32(min(count - offset, Int(Int32.max))))
            if written > 0 {
                offset += Int(written)
                continue
            }
            switch SSL_get_error(ssl, written) {
            case SSL_ERROR_WANT_WRITE, SSL_ERROR_WANT_READ: return offset
            default:
                ERR_clear_error()
                return -1
            }
        }
        return offset
    }
}
