#if canImport(Glibc)
import Glibc
#endif
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

    /// What a `ClientConfiguration()` starts with: the process's choice (`useForEveryClient`, as a service
    /// makes from its `--tls-*` flags), else `KINDRED_CLIENT_TLS_CA` (with `KINDRED_CLIENT_TLS_CERT` and
    /// `KINDRED_CLIENT_TLS_KEY` for mutual TLS) from the environment, which tools such as the load tester
    /// follow; else nil, h2c.
    public static var processDefault: ClientTLS? { processWide.withLock { $0 } }

    /// Makes every `ClientConfiguration` created from now on use `tls`; a service calls this once at start,
    /// before it creates its clients, so that each of its peers is called over the same transport.
    public static func useForEveryClient(_ tls: ClientTLS?) {
        processWide.withLock { $0 = tls }
    }

    private static let processWide = Mutex<ClientTLS?>(fromEnvironment())

    private static func fromEnvironment() -> ClientTLS? {
        func variable(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            return String(cString: value)
        }
        guard let ca = variable("KINDRED_CLIENT_TLS_CA") else { return nil }
        let settings = ClientTLSSettings(
            caFile: ca, certificateFile: variable("KINDRED_CLIENT_TLS_CERT"),
            privateKeyFile: variable("KINDRED_CLIENT_TLS_KEY"))
        do {
            return try ClientTLS(settings)
        } catch {
            // Calling peers in the clear instead would be worse than not starting.
            fatalError("KINDRED_CLIENT_TLS_*: \(error)")
        }
    }
}
