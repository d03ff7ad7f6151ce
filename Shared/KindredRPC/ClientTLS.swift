import Synchronization

/// TLS credentials for `RPCClient`s: the CA that verifies servers and, for mutual TLS, the client's own
/// certificate. Built once from the files; `reload()` reads them again for the connections opened next.
public final class ClientTLS: Sendable {
    public let settings: ClientTLSSettings
    private let current: Mutex<TLSContext>

    /// Loads the files; throws when they do not make a working context.
    public init(_ settings: ClientTLSSettings) throws(TLSError) {
        self.settings = settings
        current = Mutex(try TLSContext.client(settings))
    }

    /// The context new connections use.
    var context: TLSContext { current.withLock { $0 } }

    /// Reads the files again; on an error the previous credentials stay in use and the error is thrown.
    public func reload() throws(TLSError) {
        let context = try TLSContext.client(settings)
        current.withLock { $0 = context }
    }

    /// What a `ClientConfiguration()` starts with: nil (h2c) unless the process chose TLS for every
    /// client it makes (`useForEveryClient`), as a service started with `--tls-ca` does.
    public static var processDefault: ClientTLS? { processWide.withLock { $0 } }

    /// Makes every `ClientConfiguration` created from now on use `tls`; a service calls this once at start,
    /// before it creates its clients, so that each of its peers is called over the same transport.
    public static func useForEveryClient(_ tls: ClientTLS?) {
        processWide.withLock { $0 = tls }
    }

    private static let processWide = Mutex<ClientTLS?>(nil)
}
