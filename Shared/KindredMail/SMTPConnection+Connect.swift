internal import Glibc

extension SMTPConnection {
    /// Resolves `host` and tries each address in turn; returns a connected non-blocking socket.
    /// Name resolution itself blocks without a timeout (getaddrinfo has none); it runs on the delivery thread.
    static func connect(host: String, port: Int, timeout: Duration) throws(MailTransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &addresses)
        guard status == 0, let addresses else {
            throw .temporary("SMTP: cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(addresses) }
        let deadline = ContinuousClock.now + timeout
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = addresses
        while let address = entry?.pointee {
            entry = address.ai_next
            let flags =
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let socket = Glibc.socket(address.ai_family, flags, address.ai_protocol)
            guard socket >= 0 else {
                failure = String(cString: strerror(errno))
                continue
            }
            if let error = finishConnect(socket, address, until: deadline) {
                failure = error
                close(socket)
                continue
            }
            return socket
        }
        throw .temporary("SMTP: cannot connect to \(host):\(port): \(failure)")
    }

    /// Connects `socket` to `address`, waiting until `deadline`; nil on success, else why not.
    private static func finishConnect(
        _ socket: Int32, _ address: addrinfo, until deadline: ContinuousClock.Instant
    )
        -> String?
    {
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        guard poll(socket, Int16(POLLOUT), until: deadline) else { return "timed out" }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            return String(cString: strerror(errno))
        }
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
