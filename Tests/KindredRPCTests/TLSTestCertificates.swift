import Foundation
import KindredRPC
import KindredTestSupport

/// A private CA and certificates made by `deploy/local/tls-certificates` in a directory of the test's own:
/// each name's certificate carries `DNS:<name>`, `DNS:localhost` and `IP:127.0.0.1`.
struct TLSTestCertificates {
    let directory: String

    /// A new CA and a certificate for each of `names`.
    init(_ names: String...) async throws {
        directory = try temporaryDirectory("kindred-tls", removedAtExit: true)
        try await make(names)
    }

    /// Adds certificates from the same CA.
    func make(_ names: [String]) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/local/tls-certificates").path
        let (status, output) = try await Subprocess.run([script, directory] + names)
        guard status == 0 else { throw TestFailure("tls-certificates failed: \(output)") }
    }

    var caFile: String { "\(directory)/ca.pem" }
    func certificate(_ name: String) -> String { "\(directory)/\(name).pem" }
    func key(_ name: String) -> String { "\(directory)/\(name).key" }

    /// A listener serving `name`'s certificate; with `clientCA`, one that requires client certificates.
    func server(_ name: String, requiringClientCertificates: Bool = false) -> ServerTLSSettings {
        ServerTLSSettings(
            certificateFile: certificate(name), privateKeyFile: key(name),
            clientCAFile: requiringClientCertificates ? caFile : nil)
    }

    /// A client trusting this CA, presenting `name`'s certificate when given.
    func client(as name: String? = nil) throws -> ClientConfiguration {
        var configuration = ClientConfiguration.tests
        configuration.tls = try ClientTLS(
            ClientTLSSettings(
                caFile: caFile, certificateFile: name.map(certificate), privateKeyFile: name.map(key)))
        configuration.maxAttempts = 1
        return configuration
    }

    /// Copies `name`'s certificate and key over the files a server was started with.
    func install(_ name: String, as served: ServerTLSSettings) throws {
        for (source, destination) in [
            (certificate(name), served.certificateFile), (key(name), served.privateKeyFile),
        ] {
            _ = unlink(destination)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        }
    }
}
