import Testing

@testable import KindredMail

@Suite struct SMTPProtocolTests {
    @Test func aMultiLineReplyIsAssembledFromItsLines() throws {
        var reader = SMTPReplyReader()
        #expect(try reader.take("250-mail.example.com greets you") == nil)
        #expect(try reader.take("250-8BITMIME") == nil)
        let reply = try #require(try reader.take("250 HELP"))
        #expect(reply == SMTPReply(code: 250, lines: ["mail.example.com greets you", "8BITMIME", "HELP"]))
        #expect(try reader.take("221") == SMTPReply(code: 221, lines: [""]))
    }

    @Test(arguments: ["", "25", "abc hello", "250hello", "099 too low", "600 too high"])
    func aMalformedReplyLineIsAnError(line: String) {
        var reader = SMTPReplyReader()
        #expect(throws: MailTransportError.self) { try reader.take(line) }
    }

    @Test func linesOfOneReplyMustShareTheirCode() throws {
        var reader = SMTPReplyReader()
        _ = try reader.take("250-first")
        #expect(throws: MailTransportError.self) { try reader.take("550 second") }
    }

    @Test func aLeadingDotIsDoubledAndTheMessageEndsWithALoneDot() {
        let message = Array("Subject: x\r\n\r\n.\r\n..two\r\nnot.first\r\n.".utf8)
        let stuffed = String(decoding: SMTPData.stuffed(message), as: UTF8.self)
        #expect(stuffed == "Subject: x\r\n\r\n..\r\n...two\r\nnot.first\r\n..\r\n.\r\n")
    }
}
