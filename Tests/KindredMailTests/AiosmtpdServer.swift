import Foundation
import KindredTestSupport
import Testing

/// Python's aiosmtpd on a loopback port of its own choosing, storing every message it accepts in a maildir:
/// open (no TLS, no AUTH), `startTLS` (STARTTLS and then AUTH required, with `certificates`' server
/// certificate), `implicitTLS` (TLS from the first byte, AUTH required) or `authWithoutTLS` (AUTH required, no
/// STARTTLS). The one account is `kindred` / `s3cret-pass`.
struct AiosmtpdServer {
    enum Mode: String { case open, startTLS, implicitTLS, authWithoutTLS }

    static let username = "kindred"
    static let password = "s3cret-pass"

    let mailbox: String
    private let process: LoopbackServerProcess
    var port: Int { process.port }

    init(directory: String, mode: Mode = .open, certificates: TestCertificates? = nil) async throws {
        mailbox = directory + "/mailbox"
        process = try await LoopbackServerProcess(
            [
                try testPython(peer: "Python's aiosmtpd"), "-c", Self.script, mailbox, mode.rawValue,
                certificates?.serverCertificate ?? "", certificates?.serverKey ?? "",
            ],
            log: directory + "/aiosmtpd.log")
    }

    func stop() { process.stop() }

    /// The messages received so far, oldest first.
    var messages: [String] { maildirFiles(mailbox) }

    private static let script = """
        import asyncio, ssl, sys
        from aiosmtpd.handlers import Mailbox
        from aiosmtpd.smtp import SMTP, AuthResult
        \(LoopbackServerProcess.pythonAnnouncePort)
        mailbox, mode, certificate, key = sys.argv[1:5]
        tls = None
        if mode in ("startTLS", "implicitTLS"):
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(certificate, key)
        starttls = tls if mode == "startTLS" else None
        def authenticate(server, session, envelope, mechanism, data):
            ok = data.login == b"\(username)" and data.password == b"\(password)"
            return AuthResult(success=ok, handled=False)
        def session():
            return SMTP(Mailbox(mailbox), hostname="localhost", tls_context=starttls,
                        require_starttls=starttls is not None, authenticator=authenticate,
                        auth_required=mode != "open", auth_require_tls=starttls is not None)
        async def main():
            implicit = tls if mode == "implicitTLS" else None
            server = await asyncio.get_running_loop().create_server(session, "127.0.0.1", 0, ssl=implicit)
            announce_port(server.sockets[0].getsockname()[1])
            await server.serve_forever()
        asyncio.run(main())
        """
}

/// A throwaway CA, a server certificate for 127.0.0.1 it signed, and a second CA that signed nothing,
/// made with the `openssl` command.
struct TestCertificates {
    let authority: String
    let otherAuthority: String
    let serverCertificate: String
    let serverKey: String

    init(directory: String) async throws {
        authority = directory + "/ca.pem"
        otherAuthority = directory + "/other-ca.pem"
        serverCertificate = directory + "/server.pem"
        serverKey = directory + "/server.key"
        let (status, output) = try await Subprocess.run(["/bin/sh", "-c", Self.script, "sh", directory])
        guard status == 0 else {
            throw TestFailure("openssl could not make the test certificates: \(output)")
        }
    }

    private static let script = """
        set -e
        cd "$1"
        key="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        openssl req -x509 $key -keyout ca.key -out ca.pem -days 1 -subj "/CN=Kindred test CA" 2>&1
        openssl req -x509 $key -keyout other-ca.key -out other-ca.pem -days 1 -subj "/CN=Another CA" 2>&1
        openssl req $key -keyout server.key -out server.csr -subj "/CN=127.0.0.1" 2>&1
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > server.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 \\
            -extfile server.ext -out server.pem 2>&1
        """
}
