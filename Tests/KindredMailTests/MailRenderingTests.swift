import Foundation
import Testing

@testable import KindredMail

@Suite struct MailRenderingTests {
    let from = try! MailAddress("no-reply@kindred.local", displayName: "Kindred")
    let date = Date(timeIntervalSince1970: 1_795_251_900)  // Sat, 21 Nov 2026 09:05:00 UTC

    func render(subject: String = "Hello", body: String = "Hi.\n") throws -> String {
        let message = try MailMessage(to: "user@example.com", subject: subject, body: body)
        return String(
            decoding: message.rendered(from: from, date: date, messageID: "id-1@kindred.local"), as: UTF8.self
        )
    }

    /// Decodes RFC 2047 "B" words the way a mail reader joins them, for checking what was encoded.
    func decodeEncodedWords(_ header: String) -> String {
        let words = header.components(separatedBy: "\r\n ").flatMap { $0.split(separator: " ") }
        let bytes = words.flatMap { word -> [UInt8] in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return [] }
            return Array(Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data())
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func header(_ name: String, in text: String) -> String? {
        let head = text.components(separatedBy: "\r\n\r\n")[0]
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: "\u{1}")
        let line = unfolded.components(separatedBy: "\r\n").first { $0.hasPrefix(name + ": ") }
        return line.map {
            String($0.dropFirst(name.count + 2)).replacingOccurrences(of: "\u{1}", with: "\r\n ")
        }
    }

    @Test func theHeadersAreThereAndEveryLineEndsInCRLF() throws {
        let text = try render()
        #expect(header("Date", in: text) == "Sat, 21 Nov 2026 09:05:00 +0000")
        #expect(header("From", in: text) == "Kindred <no-reply@kindred.local>")
        #expect(header("To", in: text) == "user@example.com")
        #expect(header("Subject", in: text) == "Hello")
        #expect(header("Message-ID", in: text) == "<id-1@kindred.local>")
        #expect(header("MIME-Version", in: text) == "1.0")
        #expect(header("Content-Type", in: text) == "text/plain; charset=utf-8")
        #expect(header("Content-Transfer-Encoding", in: text) == "7bit")
        #expect(text.hasSuffix("\r\n\r\nHi.\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
    }

    @Test(arguments: [
        "Bestätige deine E-Mail-Adresse", "Welcome to Kindred 👶🍼",
        "ようこそ、Kindredへ。メールアドレスを確認してください。本当にありがとうございます。",
        "=?UTF-8?B?aGk=?= looks encoded", String(repeating: "Ü", count: 200),
    ])
    func aSubjectThatIsNotPlainASCIIIsSentAsEncodedWordsThatDecodeBack(subject: String) throws {
        let text = try render(subject: subject)
        let encoded = try #require(header("Subject", in: text))
        #expect(encoded.utf8.allSatisfy { $0 < 128 })
        #expect(decodeEncodedWords(encoded) == subject)
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 76) }
    }

    @Test func aLongASCIISubjectIsFoldedAtSpaces() throws {
        let subject = Array(repeating: "Your weekly Kindred summary", count: 6).joined(separator: " ")
        let text = try render(subject: subject)
        let folded = try #require(header("Subject", in: text))
        #expect(folded.contains("\r\n "))
        #expect(folded.replacingOccurrences(of: "\r\n", with: "") == subject)
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78) }
    }

    @Test func aNonASCIIDisplayNameIsEncodedAndAQuotedOneEscaped() {
        let encoded = MailHeader.address("From", try! MailAddress("a@b.c", displayName: "Família Kindred"))
        #expect(encoded.hasPrefix("From: =?UTF-8?B?"))
        #expect(decodeEncodedWords(String(encoded.dropFirst(6))) == "Família Kindred")
        let quoted = MailHeader.address("From", try! MailAddress("a@b.c", displayName: "Kindred, \"Inc.\""))
        #expect(quoted == "From: \"Kindred, \\\"Inc.\\\"\" <a@b.c>")
    }

    @Test func aNonASCIIBodyIsQuotedPrintableUTF8WithShortLines() throws {
        let body = "Hallo Jürgen,\n\n" + String(repeating: "ä", count: 100) + "\nEnde = Schluss \n"
        let encoded = MailBody(body)
        #expect(encoded.transferEncoding == "quoted-printable")
        #expect(encoded.lines[0] == "Hallo J=C3=BCrgen,")
        #expect(encoded.lines[1] == "")
        #expect(encoded.lines.last == "Ende =3D Schluss=20")
        for line in encoded.lines { #expect(line.utf8.count <= 76) }
        // Soft breaks never split an escape: every "=" starts an escape or ends a line.
        for line in encoded.lines where line.hasSuffix("=") { #expect(!line.dropLast().hasSuffix("=")) }
    }

    @Test func anASCIIBodyIsSevenBitWithLineBreaksNormalised() {
        let encoded = MailBody("one\r\ntwo\nthree\rfour\n")
        #expect(encoded.transferEncoding == "7bit")
        #expect(encoded.lines == ["one", "two", "three", "four"])
        #expect(MailBody(String(repeating: "x", count: 999)).transferEncoding == "quoted-printable")
    }

    @Test func quotedPrintableEscapesTrailingWhitespaceAndEquals() {
        #expect(MailBody.quotedPrintable(Array("a = b\t".utf8)) == ["a =3D b=09"])
        let long = MailBody.quotedPrintable(Array(String(repeating: "a", count: 80).utf8))
        #expect(long == [String(repeating: "a", count: 75) + "=", "aaaaa"])
    }
}
