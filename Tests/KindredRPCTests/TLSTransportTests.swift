import Foundation
import KindredRPC
import KindredTestSupport
import Testing

/// TLS 1.3 between Kindred's own client and server: the handshake and ALPN, bulk data through OpenSSL's
/// partial writes, refusals, mutual TLS with an allow-list, and a certificate reload under a call in flight.
@Suite(.timeLimit(.minutes(1))) struct TLSTransportTests {
    @Test func aClientCallsOverTLSAndAStreamBeyondManySocketBuffersArrivesWhole() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop")
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: certificates.server("kindred-interop"))
            let client = try RPCClient(target: server.target, configuration: certificates.client())
            let echo: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("over tls"))
            #expect(echo.text == "over tls")
            // 20 MB: SSL_write fills the socket and is retried from HeldOutput many times over.
            var count = 0
            for try await message in client.serverStreaming(
                method: ClientTestService.method("Count"), request: ClientTestText("200,0,100000"),
                responseType: ClientTestText.self)
            {
                #expect(message.text.hasPrefix("\(count) ") && message.text.utf8.count > 100_000)
                count += 1
            }
            #expect(count == 200)
            client.close()
            await server.stop()
        }
    }

    @Test func aClientOfferingOnlyTLS12IsRefusedWithOneLogLine() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop")
        // The client's mistake: `notice`, below the `warning` that shows the server's own faults.
        let log = CapturedLog(level: .notice)
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: certificates.server("kindred-interop"), log: log)
            let client = try RPCClient(target: server.target, configuration: certificates.client())
            // Answered: the server runs before openssl knocks.
            let _: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("before"))
            let (status, output) = try await Subprocess.run([
                "/usr/bin/openssl", "s_client", "-connect", server.target, "-tls1_2", "-alpn", "h2",
                "-CAfile", certificates.caFile,
            ])
            #expect(status != 0, "the TLS 1.2 handshake succeeded: \(output)")
            // The server has one loop: once a call on a later connection is answered, the refusal is logged.
            let later = try RPCClient(target: server.target, configuration: certificates.client())
            let _: ClientTestText = try await later.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("after"))
            let refusals = log.lines("refused a TLS handshake")
            #expect(refusals.count == 1)
            #expect(refusals.first?.fields["reason"]?.contains("TLS 1.3 is required") == true)
            client.close()
            later.close()
            await server.stop()
        }
    }

    @Test func aPlaintextClientOnTheTLSPortIsRefusedInWords() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop")
        let log = CapturedLog(level: .notice)
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: certificates.server("kindred-interop"), log: log)
            let plaintext = try Loopback.connect(port: server.port)
            let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
            #expect(write(plaintext, preface, preface.count) == preface.count)
            // The server has one loop: once a call on a later connection is answered, the refusal is logged.
            let later = try RPCClient(target: server.target, configuration: certificates.client())
            let _: ClientTestText = try await later.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("after"))
            let refusal = try #require(log.lines("refused a TLS handshake").first)
            #expect(refusal.level == .notice)
            #expect(
                refusal.fields["reason"]
                    == "a plaintext client connected to the TLS port (its first bytes are not TLS)")
            #expect(
                refusal.fields["detail"]?.contains("wrong version number") == true, "OpenSSL's words, beside")
            close(plaintext)
            later.close()
            await server.stop()
        }
    }

    @Test func aClientReconnectingInALoopGetsAFewRefusalLinesNotOnePerConnection() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop")
        let log = CapturedLog(level: .notice)
        try await onClientTestLoop {
            let server = try ClientTestServer(
                tls: certificates.server("kindred-interop"), log: log,
                configure: { $0.accessLog.summaryWindow = .seconds(3_600) })
            let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
            let sockets = try (0..<12).map { _ in try Loopback.connect(port: server.port) }
            for socket in sockets { #expect(write(socket, preface, preface.count) == preface.count) }
            let later = try RPCClient(target: server.target, configuration: certificates.client())
            let _: ClientTestText = try await later.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("after"))
            #expect(log.lines("refused a TLS handshake").count == AccessLogSettings().noisyLinesPerWindow)
            for socket in sockets { close(socket) }
            later.close()
            await server.stop()
        }
    }

    @Test func aClientThatDoesNotTrustTheServerFailsUnavailableAndSaysWhy() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop")
        let stranger = try await TLSTestCertificates()
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: certificates.server("kindred-interop"))
            try await Self.expectRefusal(
                of: stranger.client(), by: server, saying: "certificate verify failed")
            await server.stop()
        }
    }

    /// A peer that accepts the connection but never answers the handshake holds no call for ever: the client's
    /// `connectTimeout` covers the handshake, so the call fails UNAVAILABLE then, not at its own deadline.
    @Test func aHandshakeThatNeverFinishesEndsAtTheConnectTimeout() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop")
        // Listening, never accepting: the kernel completes the TCP connect and the ClientHello goes unread.
        let (silent, port) = try Loopback.bind(listening: 4)
        defer { close(silent) }
        try await onClientTestLoop {
            var configuration = try certificates.client()
            configuration.connectTimeout = .milliseconds(300)
            let client = try RPCClient(target: "127.0.0.1:\(port)", configuration: configuration)
            let error = await rpcError {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText("x"),
                    options: CallOptions(timeout: .seconds(50)))
            }
            #expect(error?.code == .unavailable, "abandoned at the connect timeout, not at the deadline")
            client.close()
        }
    }

    @Test func mutualTLSChecksTheCallersCertificateAgainstTheMethodsAllowList() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop", "kindred-family", "kindred-tests")
        var settings = certificates.server("kindred-interop", requiringClientCertificates: true)
        settings.peerRules = [
            PeerRule(methods: [ClientTestService.method("Echo")], allowedNames: ["kindred-family"])
        ]
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: settings)
            let family = try RPCClient(
                target: server.target, configuration: certificates.client(as: "kindred-family"))
            let tests = try RPCClient(
                target: server.target, configuration: certificates.client(as: "kindred-tests"))
            let anonymous = try RPCClient(target: server.target, configuration: certificates.client())
            let allowed: ClientTestText = try await family.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("family"))
            #expect(allowed.text == "family")
            let offList = await rpcError {
                let _: ClientTestText = try await tests.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText("tests"))
            }
            #expect(
                offList?.code == .permissionDenied && offList?.reason == AuthenticationReason.peerNotAllowed)
            let elsewhere: ClientTestText = try await tests.unary(
                method: ClientTestService.method("Metadata"), request: ClientTestText(""))
            #expect(elsewhere.text.hasPrefix("-|"), "a method no rule covers")
            let noCertificate = await rpcError {
                let _: ClientTestText = try await anonymous.unary(
                    method: ClientTestService.method("Metadata"), request: ClientTestText(""))
            }
            #expect(noCertificate?.code == .unavailable)
            for client in [family, tests, anonymous] { client.close() }
            await server.stop()
        }
    }

    /// In TLS 1.3 a client's handshake is over before the server checks its certificate, so a refusal comes as an
    /// alert on the client's first read. The server spoke: the call is not taken for one no server processed and
    /// sent again (each resend a handshake more for the server to refuse, and the same answer from any replica).
    @Test func aClientCertificateRefusedAfterTheHandshakeIsOneRefusalAndSaysWhy() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop", "kindred-family")
        let serverLog = CapturedLog(level: .notice)
        try await onClientTestLoop {
            let settings = certificates.server("kindred-interop", requiringClientCertificates: true)
            let server = try ClientTestServer(tls: settings, log: serverLog)
            try await Self.expectRefusal(
                of: certificates.client(), by: server, saying: "mutual TLS requires one")
            // The server has one loop: once a call on a later connection is answered, the refusals are logged.
            let family = try RPCClient(
                target: server.target, configuration: certificates.client(as: "kindred-family"))
            let _: ClientTestText = try await family.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("after"))
            #expect(serverLog.lines("refused a TLS handshake").count == 1)
            family.close()
            await server.stop()
        }
    }

    /// A call through `configuration` to `server` fails UNAVAILABLE, and the client's warning about the failed
    /// handshake gives `reason`.
    private static func expectRefusal(
        of configuration: ClientConfiguration, by server: ClientTestServer, saying reason: String
    ) async throws {
        let log = CapturedLog(level: .warning)
        var configuration = configuration
        configuration.logger = log.logger()
        let client = try RPCClient(target: server.target, configuration: configuration)
        defer { client.close() }
        let error = await rpcError {
            let _: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("x"))
        }
        #expect(error?.code == .unavailable)
        let failure = log.lines("TLS handshake with a peer failed").first
        #expect(failure?.fields["reason"]?.contains(reason) == true)
    }

    @Test func aReloadServesTheNewCertificateToNewcomersWhileACallInFlightFinishes() async throws {
        let old = try await TLSTestCertificates("kindred-interop")
        let renewed = try await TLSTestCertificates("kindred-interop")
        let served = try await TLSTestCertificates()
        let settings = served.server("kindred-interop")
        try old.install("kindred-interop", as: settings)
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: settings)
            let early = try RPCClient(target: server.target, configuration: old.client())
            let held = Task(executorPreference: clientTestLoop) { () async throws -> ClientTestText in
                try await early.unary(method: ClientTestService.method("Hold"), request: ClientTestText(""))
            }
            // Answered on the same connection as the held call, after it: that connection is up on the old files.
            let _: ClientTestText = try await early.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("open"))
            try renewed.install("kindred-interop", as: settings)
            try server.server.reloadTLS()

            let newcomer = try RPCClient(target: server.target, configuration: renewed.client())
            let fresh: ClientTestText = try await newcomer.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("renewed"))
            #expect(fresh.text == "renewed")
            let stale = try RPCClient(target: server.target, configuration: old.client())
            let refused = await rpcError {
                let _: ClientTestText = try await stale.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText("stale"))
            }
            #expect(refused?.code == .unavailable, "a client trusting only the old CA")
            server.observations.hold.open()
            #expect(try await held.value.text == "released")
            for client in [early, newcomer, stale] { client.close() }
            await server.stop()
        }
    }

    @Test func filesThatDoNotLoadLeaveThePreviousCredentialsInUse() async throws {
        let certificates = try await TLSTestCertificates("kindred-interop", "kindred-other")
        let served = try await TLSTestCertificates()
        let settings = served.server("kindred-interop")
        try certificates.install("kindred-interop", as: settings)
        try await onClientTestLoop {
            let server = try ClientTestServer(tls: settings)
            // A certificate that does not match the key, as when a rotation has written one file of two.
            try FileManager.default.removeItem(atPath: settings.certificateFile)
            try FileManager.default.copyItem(
                atPath: certificates.certificate("kindred-other"), toPath: settings.certificateFile)
            #expect(throws: TLSError.self) { try server.server.reloadTLS() }
            let client = try RPCClient(target: server.target, configuration: certificates.client())
            let echo: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("still"))
            #expect(echo.text == "still")
            client.close()
            await server.stop()
        }
    }
}
