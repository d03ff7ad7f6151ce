internal import CCurl

/// One libcurl easy handle set up to send one message to an SMTP server; blocks the calling thread.
final class CurlSMTPSession {
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    private let transport: SMTPTransport
    private let handle: UnsafeMutableRawPointer
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))

    init(_ transport: SMTPTransport) throws(MailTransportError) {
        guard Self.globalInit == CURLE_OK, let handle = curl_easy_init() else {
            throw .temporary("libcurl cannot start an SMTP session")
        }
        self.transport = transport
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// MAIL FROM, RCPT TO and DATA (libcurl dot-stuffs the message), after STARTTLS and AUTH as configured.
    func send(_ mail: OutgoingMail) throws(MailTransportError) {
        let recipients = curl_slist_append(nil, "<\(mail.recipient)>")
        defer { curl_slist_free_all(recipients) }
        let message = MessageReader(mail.bytes)
        let context = Unmanaged.passUnretained(message).toOpaque()
        let code = errorBuffer.withUnsafeMutableBufferPointer { errorBuffer in
            var code = configure()
            for (option, value) in [
                (CURLOPT_MAIL_FROM, "<\(mail.sender)>"), (CURLOPT_URL, transport.url),
            ] where code == CURLE_OK {
                code = kindred_curl_set_string(handle, option, value)
            }
            for (option, value): (CURLoption, UnsafeRawPointer?) in [
                (CURLOPT_MAIL_RCPT, UnsafeRawPointer(recipients)),
                (CURLOPT_READDATA, UnsafeRawPointer(context)),
                (CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer.baseAddress)),
            ] where code == CURLE_OK {
                code = kindred_curl_set_pointer(handle, option, value)
            }
            if code == CURLE_OK { code = kindred_curl_set_read_function(handle, MessageReader.read) }
            return withExtendedLifetime(message) { code == CURLE_OK ? curl_easy_perform(handle) : code }
        }
        guard code != CURLE_OK else { return }
        throw SMTPFailure(
            code: code, reply: kindred_curl_response_code(handle),
            detail: String(
                decoding: errorBuffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self),
            server: transport.server
        ).error
    }

    /// Everything but the message: protocol, TLS, credentials, timeouts.
    private func configure() -> CURLcode {
        let server = transport.server
        var longs: [(CURLoption, Int)] = [
            (CURLOPT_NOSIGNAL, 1), (CURLOPT_UPLOAD, 1),
            (CURLOPT_CONNECTTIMEOUT_MS, transport.connectTimeout.milliseconds),
            (CURLOPT_TIMEOUT_MS, transport.timeout.milliseconds),
            (CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)),
        ]
        if server.security == .startTLS { longs.append((CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))) }
        // No proxy from the environment (all_proxy) may carry mail or see credentials; only SMTP is spoken.
        var strings: [(CURLoption, String)] = [(CURLOPT_NOPROXY, "*"), (CURLOPT_PROTOCOLS_STR, "smtp,smtps")]
        if let credentials = server.credentials {
            strings += [(CURLOPT_USERNAME, credentials.username), (CURLOPT_PASSWORD, credentials.password)]
        }
        if let caFile = server.caFile { strings.append((CURLOPT_CAINFO, caFile)) }
        for (option, value) in longs {
            let code = kindred_curl_set_long(handle, option, value)
            guard code == CURLE_OK else { return code }
        }
        for (option, value) in strings {
            let code = kindred_curl_set_string(handle, option, value)
            guard code == CURLE_OK else { return code }
        }
        return CURLE_OK
    }
}

/// The message bytes libcurl pulls through its read callback.
private final class MessageReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let read:
        @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
            buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let reader = Unmanaged<MessageReader>.fromOpaque(context).takeUnretainedValue()
            let length = min(size * count, reader.bytes.count - reader.offset)
            reader.bytes.withUnsafeBufferPointer { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(
                    from: bytes.baseAddress! + reader.offset, byteCount: length)
            }
            reader.offset += length
            return length
        }
}

extension Duration {
    fileprivate var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
