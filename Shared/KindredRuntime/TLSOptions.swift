public import ArgumentParser
public import KindredRPC

/// The TLS flags of every Kindred executable (and `kindred-interop-server`); each falls back to an
/// environment variable. Without `--tls-cert`/`--tls-key` the listener speaks h2c; without `--tls-ca` the
/// process calls its peers over h2c.
public struct TLSOptions: ParsableArguments {
    @Option(help: "PEM certificate chain to serve TLS 1.3 with and present to peers (env KINDRED_TLS_CERT).")
    public var tlsCert: String?

    @Option(help: "PEM private key of --tls-cert (env KINDRED_TLS_KEY).")
    public var tlsKey: String?

    @Option(
        help: "PEM CA file: require client certificates it issued, mutual TLS (env KINDRED_TLS_CLIENT_CA).")
    public var tlsClientCA: String?

    @Option(
        help:
            "PEM CA file that verifies the peers this process calls, over TLS 1.3 with --tls-cert as its client certificate (env KINDRED_TLS_CA)."
    )
    public var tlsCA: String?

    @Option(
        help: ArgumentHelp(
            "/SERVICE/METHOD=NAME[,NAME...]: under mutual TLS, only callers whose certificate names one of NAMES may call METHOD; repeatable (env KINDRED_TLS_ALLOW_PEERS, ';'-separated).",
            valueName: "rule"))
    public var tlsAllowPeers: [String] = []

    public init() {}
}

/// The TLS settings `TLSOptions` and the environment make: the listener's and the clients'.
public struct TLSSetup: Sendable {
    /// The listener's TLS; nil serves h2c.
    public var server: ServerTLSSettings?
    /// How this process's clients call its peers; nil calls them over h2c.
    public var client: ClientTLSSettings?

    /// Combines the flags (first) with `KINDRED_TLS_*`; throws a one-line explanation of a setting that
    /// cannot work (a key without a certificate, a rule that is not METHOD=NAMES).
    public init(options: TLSOptions, environment: [String: String]) throws(StartupError) {
        let certificate = options.tlsCert ?? environment["KINDRED_TLS_CERT"]
        let key = options.tlsKey ?? environment["KINDRED_TLS_KEY"]
        let clientCA = options.tlsClientCA ?? environment["KINDRED_TLS_CLIENT_CA"]
        let ca = options.tlsCA ?? environment["KINDRED_TLS_CA"]
        let rules =
            options.tlsAllowPeers.isEmpty
            ? (environment["KINDRED_TLS_ALLOW_PEERS"] ?? "").split(separator: ";").map(String.init)
            : options.tlsAllowPeers
        switch (certificate, key) {
        case (let certificate?, let key?):
            var server = ServerTLSSettings(
                certificateFile: certificate, privateKeyFile: key, clientCAFile: clientCA)
            server.peerRules = try rules.map(Self.peerRule)
            self.server = server
        case (nil, nil):
            guard clientCA == nil else {
                throw StartupError("--tls-client-ca needs --tls-cert and --tls-key")
            }
            guard rules.isEmpty else {
                throw StartupError("--tls-allow-peers needs --tls-cert and --tls-key")
            }
        default:
            throw StartupError("TLS needs both --tls-cert and --tls-key (KINDRED_TLS_CERT, KINDRED_TLS_KEY)")
        }
        client = ca.map { ClientTLSSettings(caFile: $0, certificateFile: certificate, privateKeyFile: key) }
    }

    /// `/package.Service/Method=name,name` as a rule.
    private static func peerRule(_ text: String) throws(StartupError) -> PeerRule {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let path = parts.first?.split(separator: "/").map(String.init) ?? []
        let names = Set((parts.count == 2 ? parts[1] : "").split(separator: ",").map(String.init))
        guard parts.count == 2, parts[0].hasPrefix("/"), path.count == 2, !names.isEmpty else {
            throw StartupError("--tls-allow-peers '\(text)' is not /package.Service/Method=NAME[,NAME...]")
        }
        return PeerRule(methods: [MethodDescriptor(service: path[0], method: path[1])], allowedNames: names)
    }

    /// Makes every client this process creates from now on call its peers as `client` says.
    public func useForEveryClient() throws(StartupError) {
        do {
            ClientTLS.useForEveryClient(
                try client.map { settings throws(TLSError) in try ClientTLS(settings) })
        } catch {
            throw StartupError("cannot use the TLS client settings: \(error)")
        }
    }
}
