import Foundation
import KindredTestSupport
import Synchronization

/// A tiny SMTP server on a loopback port that answers from a script, one script per connection in turn
/// (the last one repeats), and records what each client sent. For replies a real sink never gives.
final class ScriptedSMTPServer: Sendable {
    /// What one connection received.
    struct Session: Sendable {
        var commands: [String] = []
        var data: [String] = []
    }

    /// The replies when a script does not say otherwise, by command verb; `greeting` opens the connection,
    /// `.` answers the end of the message.
    static let defaultReplies = [
        "greeting": "220 scripted ESMTP", "EHLO": "250-scripted\r\n250-8BITMIME\r\n250 HELP",
        "HELO": "250 scripted", "MAIL": "250 2.1.0 ok", "RCPT": "250 2.1.5 ok", "DATA": "354 end with .",
        ".": "250 2.0.0 queued", "QUIT": "221 2.0.0 bye", "RSET": "250 ok",
    ]

    let port: Int
    private let listener: Int32
    private let scripts: [[String: String]]
    private let state = Mutex<(sessions: [Session], stopped: Bool)>(([], false))

    /// Listens on 127.0.0.1; `scripts[i]` overrides replies on connection `i`; a nil reply (greeting
    /// included) means the server stays silent.
    init(scripts: [[String: String?]] = [[:]]) throws {
        self.scripts = scripts.map { script in
            Self.defaultReplies.merging(script.mapValues { $0 ?? "" }) { _, new in new }
        }
        (listener, port) = try Loopback.bind(listening: 8)
        Thread.detachNewThread { [self] in serve() }
    }

    var sessions: [Session] { state.withLock { $0.sessions } }

    /// Stops accepting; the serving thread closes the listening socket.
    func stop() { state.withLock { $0.stopped = true } }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func serve() {
        while !stopped {
            guard readable(listener) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let index = state.withLock { state in
                state.sessions.append(Session())
                return state.sessions.count - 1
            }
            converse(on: connection, script: scripts[min(index, scripts.count - 1)], session: index)
            close(connection)
        }
        close(listener)
    }

    private func converse(on connection: Int32, script: [String: String], session: Int) {
        var buffer: [UInt8] = []
        var inData = false
        guard reply(script["greeting"]!, on: connection) else { return drain(connection) }
        while let line = readLine(connection, &buffer) {
            if inData {
                state.withLock { $0.sessions[session].data.append(line) }
                guard line == "." else { continue }
                inData = false
                guard reply(script["."]!, on: connection) else { return drain(connection) }
                continue
            }
            state.withLock { $0.sessions[session].commands.append(line) }
            let verb = String(line.prefix { $0 != " " && $0 != ":" }).uppercased()
            let answer = script[verb] ?? "500 5.5.2 unknown command"
            guard reply(answer, on: connection) else { return drain(connection) }
            if verb == "DATA", answer.hasPrefix("354") { inData = true }
            if verb == "QUIT" { return }
        }
    }

    /// Sends `text` as a reply; false for an empty (silent) one.
    private func reply(_ text: String, on connection: Int32) -> Bool {
        guard !text.isEmpty else { return false }
        let bytes = Array((text + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return true
    }

    /// Says nothing more; waits until the client gives up and closes.
    private func drain(_ connection: Int32) {
        var ignored: [UInt8] = []
        while readLine(connection, &ignored) != nil {}
    }

    private func readLine(_ connection: Int32, _ buffer: inout [UInt8]) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = buffer[..<newline].last == 13 ? buffer[..<(newline - 1)] : buffer[..<newline]
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: line, as: UTF8.self)
            }
            guard !stopped else { return nil }
            guard readable(connection) else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    private func readable(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 50) > 0
    }
}
