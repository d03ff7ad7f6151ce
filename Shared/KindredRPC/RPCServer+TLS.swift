/// Certificate rotation without dropping a connection: new handshakes take the new files, connections
/// already open keep the credentials they started with.
extension RPCServer {
    /// Reads the TLS certificate, key and client CA files again now (a service does this on SIGHUP).
    /// Throws, keeping the previous credentials, when the new files do not load; does nothing for h2c.
    public func reloadTLS() throws(TLSError) {
        guard let tls = core.tls else { return }
        do {
            try tls.reload()
        } catch {
            core.logger.error(
                "TLS credentials not reloaded; the previous ones stay in use",
                metadata: [
                    "error": "\(error)"
                ])
            throw error
        }
        core.logger.info(
            "TLS credentials reloaded", metadata: ["certificate": "\(tls.settings.certificateFile)"])
    }

    /// Checks the credential files once a second on the accepting loop and reloads them when they change.
    func watchTLSFiles() {
        guard let tls = core.tls else { return }
        let loop = loops[0]
        loop.schedule(after: .seconds(1)) { [self] in
            guard !loop.draining else { return }
            switch tls.reloadIfChanged() {
            case nil: break
            case .success:
                core.logger.info(
                    "TLS credentials reloaded after a file changed",
                    metadata: ["certificate": "\(tls.settings.certificateFile)"])
            case .failure(let error):
                core.logger.error(
                    "TLS files changed but do not load; the previous credentials stay in use",
                    metadata: ["error": "\(error)"])
            }
            watchTLSFiles()
        }
    }
}

extension RPCServer {
    /// How the listener speaks, for its start-up line: `h2c`, `tls` or `mtls`.
    var transportName: String {
        guard let tls = core.tls else { return "h2c" }
        return tls.settings.requiresClientCertificates ? "mtls" : "tls"
    }
}
