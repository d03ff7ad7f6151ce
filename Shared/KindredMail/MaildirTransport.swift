internal import Glibc

/// Stores each message as a file in a maildir (`tmp/`, then renamed into `new/`), creating the
/// directories when missing: the local default, so a developer reads mail in `var/mail/new/`.
public struct MaildirTransport: MailTransport {
    /// The maildir: absolute, or relative to the working directory.
    public let directory: String

    /// A maildir at `directory` (created on first delivery).
    public init(directory: String) {
        self.directory = directory
    }

    /// Writes the message to `tmp/`, syncs it, renames it into `new/` and syncs `new/`.
    public func deliver(_ mail: OutgoingMail) async throws(MailTransportError) {
        let directory = self.directory
        // Files in a maildir end their lines in LF, as local mail readers expect; the wire form is CRLF.
        let bytes = mail.bytes.enumerated().filter { index, byte in
            byte != 13 || index + 1 >= mail.bytes.count || mail.bytes[index + 1] != 10
        }.map(\.element)
        _ = try await BlockingThread.run { () throws(MailTransportError) in
            try Self.store(bytes, in: directory)
        }
    }

    /// Stores `bytes` and returns the new file's path.
    @discardableResult
    static func store(_ bytes: [UInt8], in directory: String) throws(MailTransportError) -> String {
        for path in [directory, directory + "/tmp", directory + "/new", directory + "/cur"] {
            try makeDirectories(path)
        }
        let name = uniqueName()
        let temporary = "\(directory)/tmp/\(name)"
        let final = "\(directory)/new/\(name)"
        let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { try abandon(file, temporary, failure("cannot write \(temporary)")) }
            written += count
        }
        guard fsync(file) == 0 else { try abandon(file, temporary, failure("cannot sync \(temporary)")) }
        close(file)
        guard rename(temporary, final) == 0 else {
            let error = failure("cannot move the message into \(directory)/new")
            unlink(temporary)
            throw error
        }
        // The rename is durable only once the directory is synced.
        let newDirectory = open(directory + "/new", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if newDirectory >= 0 {
            fsync(newDirectory)
            close(newDirectory)
        }
        return final
    }

    /// Closes and removes a half-written file, then throws `error`.
    private static func abandon(_ file: Int32, _ path: String, _ error: MailTransportError)
        throws(MailTransportError) -> Never
    {
        close(file)
        unlink(path)
        throw error
    }

    /// `mkdir -p`, mode 0700 (mail is personal data).
    private static func makeDirectories(_ path: String) throws(MailTransportError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw failure("cannot create directory \(prefix)")
            }
            prefix += "/"
        }
    }

    /// `<seconds>.M<microseconds>P<pid>R<random>.<host>`, the maildir naming that stays unique across
    /// processes and hosts sharing one directory.
    private static func uniqueName() -> String {
        var now = timeval()
        gettimeofday(&now, nil)
        let safeHost = LocalHost.name.replacing("/", with: "\\057").replacing(":", with: "\\072")
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(now.tv_sec).M\(now.tv_usec)P\(getpid())R\(random).\(safeHost)"
    }

    private static func failure(_ what: String) -> MailTransportError {
        .temporary("maildir: \(what): \(String(cString: strerror(errno)))")
    }
}
