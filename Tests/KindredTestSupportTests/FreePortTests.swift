import Foundation
import KindredTestSupport
import Testing

@Suite struct FreePortTests {
    /// 1,000 draws from 12,768 ports would repeat one with near certainty (1 − e^−39) without the record.
    @Test func freePortNeverHandsOutAPortTwice() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let record = directory + "/ports-handed-out"
        let ports = try (0..<1_000).map { _ in try freePort(record: record) }
        #expect(Set(ports).count == ports.count)
        let recorded = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        #expect(recorded.compactMap { Int($0) } == ports)
    }

    @Test func aFullRecordIsClearedBeforeTheNextPort() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let record = directory + "/ports-handed-out"
        try (0..<4_000).map { "\(10_000 + $0)\n" }.joined().write(
            toFile: record, atomically: true, encoding: .utf8)
        let port = try freePort(record: record)
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "\(port)\n")
    }
}
