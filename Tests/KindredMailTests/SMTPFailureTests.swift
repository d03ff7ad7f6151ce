import CCurl
import Testing

@testable import KindredMail

/// How a libcurl result and the server's last reply sort into the outbox's failures, and what the log says.
@Suite struct SMTPFailureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var code: CURLcode
        var reply: Int
        var permanent: Bool
        var says: String
        var testDescription: String { "curl \(code.rawValue), reply \(reply)" }
    }

    static let cases: [Case] = [
        Case(
            code: CURLE_LOGIN_DENIED, reply: 535, permanent: true, says: "refused the user name or password"),
        // A 535 is refused credentials even when libcurl names another step as the one that failed.
        Case(code: CURLE_SEND_ERROR, reply: 535, permanent: true, says: "refused the user name or password"),
        Case(code: CURLE_LOGIN_DENIED, reply: 0, permanent: true, says: "refused the user name or password"),
        Case(code: CURLE_SEND_ERROR, reply: 550, permanent: true, says: "the server's last reply was 550"),
        Case(code: CURLE_SEND_ERROR, reply: 421, permanent: false, says: "the server's last reply was 421"),
        Case(code: CURLE_OPERATION_TIMEDOUT, reply: 0, permanent: false, says: "Timeout"),
        Case(code: CURLE_USE_SSL_FAILED, reply: 0, permanent: true, says: "does not offer STARTTLS"),
        Case(
            code: CURLE_PEER_FAILED_VERIFICATION, reply: 0, permanent: true,
            says: "certificate does not verify"),
    ]

    @Test(arguments: cases)
    func aResultSortsAndSaysWhatFailed(_ row: Case) {
        let failure = SMTPFailure(
            code: row.code, reply: row.reply, detail: "",
            server: SMTPServer(host: "mail.example.com", port: 587, security: .startTLS))
        #expect(failure.error.isPermanent == row.permanent)
        #expect(failure.error.description.contains(row.says), "\(failure.error.description)")
        #expect(failure.error.description.hasPrefix("SMTP mail.example.com:587: "))
    }
}
