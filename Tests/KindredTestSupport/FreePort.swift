import Foundation

/// A loopback port nothing is bound to, below the kernel's ephemeral range (32768 and up): a server a test
/// stops and starts again on it cannot find it taken meanwhile by another test's outgoing connection, as a port
/// the kernel hands out can be (a PostgreSQL restart failed so, in a local run of session 20).
///
/// Handed out through `record` by deploy/local/free_port.py's rule: the record is locked while it is read and
/// written, and a port in it is not handed out again until the record is cleared (at 4,000). So no test here,
/// in the pytest suites or in Tests/run is handed a port that another was given and has not bound yet.
public func freePort(record path: String = defaultPortRecord) throws -> Int {
    let record = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard record >= 0 else { throw TestFailure("cannot open the port record \(path): errno \(errno)") }
    defer { close(record) }
    guard flock(record, LOCK_EX) == 0 else { throw TestFailure("cannot lock \(path): errno \(errno)") }
    let recorded = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    var handedOut = Set(recorded.split(separator: "\n").compactMap { Int($0) })
    if handedOut.count >= 4_000 {
        ftruncate(record, 0)
        handedOut = []
    }
    for _ in 0..<100 {
        let port = Int.random(in: 20_000..<32_768)
        guard !handedOut.contains(port), let (socket, _) = try? Loopback.bind(port: port) else { continue }
        close(socket)
        let line = "\(port)\n"
        guard write(record, line, line.utf8.count) == line.utf8.count else {
            throw TestFailure("cannot write to \(path): errno \(errno)")
        }
        return port
    }
    throw TestFailure("no free loopback port in 20000-32767 after 100 tries")
}

/// The record deploy/local/lib.sh exports as `KINDRED_PORT_RECORD` (as Tests/run runs the tests), or the one it
/// defaults to, var/ports-handed-out in this checkout.
public let defaultPortRecord: String = {
    let environment = ProcessInfo.processInfo.environment["KINDRED_PORT_RECORD"] ?? ""
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let record =
        environment.isEmpty ? checkout.appendingPathComponent("var/ports-handed-out").path : environment
    try? FileManager.default.createDirectory(
        atPath: (record as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    return record
}()
