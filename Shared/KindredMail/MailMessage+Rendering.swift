internal import FoundationEssentials

extension MailMessage {
    /// The message as it is sent: RFC 5322 headers, a MIME `text/plain; charset=utf-8` body, every line
    /// ending in CRLF, ASCII only.
    func rendered(from: MailAddress, date: Date, messageID: String) -> [UInt8] {
        let body = MailBody(self.body)
        let headers = [
            "Date: " + MailHeader.date(date),
            MailHeader.address("From", from),
            "To: " + to,
            MailHeader.unstructured("Subject", subject),
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: " + body.transferEncoding,
        ]
        let text = (headers + [""] + body.lines).joined(separator: "\r\n") + "\r\n"
        return Array(text.utf8)
    }
}
