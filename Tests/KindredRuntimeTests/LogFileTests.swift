import Foundation
import KindredMetrics
import Logging
import Testing

@testable import KindredRPC
@testable import KindredRuntime

/// The log as it reaches a file: an access line written directly says what the generic path says, and a file
/// rotates by size, keeping a bounded number of whole-line files.
@Suite struct LogFileTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "kindred-log-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func objects(in file: URL) throws -> [[String: String]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return object.mapValues { "\($0)" }
        }
    }

    @Test(arguments: [
        AccessLine.RequestID.given(#"req "42""#), .generated(prefix: "k3x9", loop: 1, number: 12_345),
    ])
    func theDirectAccessLineHasTheFieldsOfTheGenericOne(requestID: AccessLine.RequestID) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "service.log")
        let writer = try LogLineWriter.rotatingFile(path: file.path, maxBytes: 1 << 20, keep: 1)
        var handler = JSONLogHandler(label: "kindred-test", level: .info, writer: writer)
        handler.metadata["service"] = "test"
        let line = AccessLine(
            level: .error, method: "/test.Service/Crash", code: .internal, reason: "SOME_REASON",
            cause: RPCError.Fault("a \"quoted\"\ncause"), durationNanos: 12_345_678, peer: "ipv4:127.0.0.1:5",
            requestID: requestID,
            trace: TraceContext(traceHigh: 0x0123_4567_89ab_cdef, traceLow: 42, spanID: 7, flags: 1))
        handler.write(line)
        handler.log(
            event: LogEvent(
                level: line.level, message: "call", metadata: line.metadata, source: "KindredRPC",
                file: #file,
                function: #function, line: #line))
        writer.flush()
        let objects = try Self.objects(in: file)
        #expect(objects.count == 2)
        let direct = objects[0].filter { $0.key != "time" }
        let generic = objects[1].filter { $0.key != "time" }
        #expect(direct == generic)
        #expect(direct["request-id"] == requestID.text)
        #expect(direct["trace_id"] == "0123456789abcdef000000000000002a")
        #expect(direct["span_id"] == "0000000000000007")
        #expect(direct["duration_ms"] == "12.345")
        #expect(direct["service"] == "test" && direct["level"] == "error")
    }

    @Test func aFileRotatesBySizeAndKeepsOnlyTheNewestFiles() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "identity.log").path
        let file = try RotatingLogFile(path: path, maxBytes: 100, keep: 2)
        // 30 lines of 25 bytes: four to a file, the last 2 files kept beside the current one.
        for index in 0..<30 {
            file.write(Array("line \(String(index + 100)) of the log.....\n".utf8))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["identity.log", "identity.log.1", "identity.log.2"])
        for name in names {
            let text = try String(contentsOfFile: directory.appending(path: name).path, encoding: .utf8)
            #expect(text.utf8.count <= 100 && text.hasSuffix("\n"))
        }
        let current = try String(contentsOfFile: path, encoding: .utf8)
        #expect(current.hasSuffix("line 129 of the log.....\n"))
        let previous = try String(contentsOfFile: path + ".1", encoding: .utf8)
        #expect(previous.hasPrefix("line 124"))
    }

    @Test func oneBatchLargerThanTheFileIsSplitBetweenLines() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "family.log").path
        let file = try RotatingLogFile(path: path, maxBytes: 50, keep: 5)
        let batch = (0..<10).flatMap { Array("batch line \($0)........\n".utf8) }  // 10 lines of 22 bytes
        file.write(batch)
        var total = ""
        for index in stride(from: 4, through: 1, by: -1) {
            total += (try? String(contentsOfFile: "\(path).\(index)", encoding: .utf8)) ?? ""
        }
        total += try String(contentsOfFile: path, encoding: .utf8)
        #expect(total == String(decoding: batch, as: UTF8.self))
    }

    @Test(arguments: [
        (0, 0, "1970-01-01T00:00:00.000Z"), (951_782_400, 7, "2000-02-29T00:00:00.007Z"),
        (2_426_457_599, 999, "2046-11-21T23:59:59.999Z"), (4_107_542_400, 0, "2100-03-01T00:00:00.000Z"),
        (2_429_913_599, 1, "2046-12-31T23:59:59.001Z"),
    ])
    func timestampsWithoutGmtimeAgreeWithIt(seconds: Int, milliseconds: Int, text: String) {
        #expect(UTCTimestamp.format(seconds: seconds, milliseconds: milliseconds) == text)
    }
}
