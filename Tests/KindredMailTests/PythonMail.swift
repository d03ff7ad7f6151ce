import Foundation
import KindredTestSupport

/// A message file as Python's `email` package (policy `default`) reads it: a parser nobody here wrote.
struct ParsedMail: Decodable {
    let from: String
    let to: String
    let subject: String
    let messageID: String
    let dateEpoch: Double
    let contentType: String
    let charset: String?
    let transferEncoding: String
    let body: String
    let defects: [String]
    /// Added by aiosmtpd's Mailbox handler: the SMTP envelope it received.
    let envelopeFrom: String?
    let envelopeTo: String?

    /// Parses `path` with `KINDRED_TEST_PYTHON`, or Debian's python3 (the email package is standard library).
    init(file path: String) async throws {
        let python = ProcessInfo.processInfo.environment["KINDRED_TEST_PYTHON"] ?? "/usr/bin/python3"
        let (status, output) = try await Subprocess.run([python, "-c", Self.script, path])
        guard status == 0 else { throw TestFailure("python could not parse \(path): \(output)") }
        self = try JSONDecoder().decode(ParsedMail.self, from: Data(output.utf8))
    }

    private static let script = """
        import email, email.policy, email.utils, json, sys
        with open(sys.argv[1], "rb") as f:
            m = email.message_from_binary_file(f, policy=email.policy.default)
        defects = [str(d) for d in m.defects]
        for name in ("from", "to", "subject", "date", "message-id"):
            defects += [f"{name}: {d}" for d in getattr(m[name], "defects", ())]
        print(json.dumps({
            "from": str(m["from"]), "to": str(m["to"]), "subject": str(m["subject"]),
            "messageID": str(m["message-id"]),
            "dateEpoch": email.utils.parsedate_to_datetime(str(m["date"])).timestamp(),
            "contentType": m.get_content_type(), "charset": m.get_content_charset(),
            "transferEncoding": str(m["content-transfer-encoding"]), "body": m.get_content(),
            "defects": defects, "envelopeFrom": m.get("x-mailfrom"), "envelopeTo": m.get("x-rcptto"),
        }))
        """
}

/// The files in `directory`/new, oldest name first.
func maildirFiles(_ directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/new")) ?? []
    return names.sorted().map { "\(directory)/new/\($0)" }
}
