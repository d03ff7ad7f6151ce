import Testing

@testable import KindredMail

@Suite struct MailMessageTests {
    @Test(arguments: [
        ("to", "victim@example.com\r\nBcc: everyone@example.com"),
        ("to", "victim@example.com\nBcc: everyone@example.com"),
        ("subject", "Hello\r\nBcc: everyone@example.com"),
        ("subject", "Hello\nX-Injected: yes"),
        ("subject", "Hello\rX-Injected: yes"),
        ("subject", "Hello\u{0}"),
    ])
    func aLineBreakOrControlCharacterInAHeaderFieldIsRefused(field: String, value: String) {
        let error = #expect(throws: MailError.self) {
            if field == "to" {
                _ = try MailMessage(to: value, subject: "Hi", body: "body")
            } else {
                _ = try MailMessage(to: "user@example.com", subject: value, body: "body")
            }
        }
        #expect(error?.field == field)
    }

    @Test func aDisplayNameWithALineBreakIsRefused() {
        #expect(throws: MailError.self) {
            try MailAddress("no-reply@kindred.local", displayName: "Kindred\r\nBcc: everyone@example.com")
        }
    }

    @Test(arguments: [
        "plain", "@example.com", "user@", "user@@example.com", "us er@example.com", "user@exa mple.com",
        "\"quoted\"@example.com", ".user@example.com", "user.@example.com", "us..er@example.com",
        "user@-example.com", "user@example..com", "user@[127.0.0.1]", "üser@example.com", "user@exämple.com",
        "<user@example.com>", String(repeating: "a", count: 65) + "@example.com",
    ])
    func anAddressThatCannotBeSentIsRefused(address: String) {
        #expect(throws: MailError.self) { try MailMessage(to: address, subject: "Hi", body: "body") }
    }

    @Test(arguments: [
        "user@example.com", "first.last+tag@sub.example.co.uk", "o'neil@example.com", "root@localhost",
    ])
    func ordinaryAddressesAreAccepted(address: String) throws {
        #expect(try MailMessage(to: address, subject: "Hi", body: "body").to == address)
    }

    @Test(arguments: ["", "Verify Email", "verify\nemail", String(repeating: "k", count: 65)])
    func aKindThatIsNotAShortNameIsRefused(kind: String) {
        let error = #expect(throws: MailError.self) {
            try MailMessage(to: "user@example.com", subject: "Hi", body: "body", kind: kind)
        }
        #expect(error?.field == "kind")
    }

    @Test func aBodyWithANulIsRefusedButLineBreaksAreFine() throws {
        #expect(throws: MailError.self) {
            try MailMessage(to: "user@example.com", subject: "Hi", body: "a\u{0}b")
        }
        _ = try MailMessage(to: "user@example.com", subject: "Hi", body: "line one\r\nline two\nline three\r")
    }

    @Test(arguments: [
        ("Kindred <no-reply@kindred.local>", "no-reply@kindred.local", "Kindred"),
        ("\"Kindred, Inc.\" <no-reply@kindred.local>", "no-reply@kindred.local", "Kindred, Inc."),
        ("  no-reply@kindred.local  ", "no-reply@kindred.local", nil),
        ("Família Kindred <ola@kindred.local>", "ola@kindred.local", "Família Kindred"),
    ])
    func aSenderIsParsedWithItsDisplayName(text: String, address: String, displayName: String?) throws {
        let parsed = try MailAddress(parsing: text)
        #expect(parsed.address == address)
        #expect(parsed.displayName == displayName)
        #expect(parsed.domain == address.split(separator: "@").last!)
    }
}
