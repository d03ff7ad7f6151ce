import ArgumentParser
import Testing

@testable import KindredRuntime

/// Where the log goes and whether probes are logged: flags first, then `KINDRED_LOG_*`, then the defaults.
@Suite struct LogSettingsTests {
    func settings(_ arguments: [String], _ environment: [String: String] = [:]) throws -> LogSettings {
        try LogSettings(options: try LogOptions.parse(arguments), environment: environment)
    }

    @Test func standardErrorAndNoProbesByDefault() throws {
        let settings = try settings([])
        #expect(settings.file == nil)
        #expect(!settings.logsProbes && !settings.accessLog.logsProbes)
        #expect(
            settings.accessLog.noisyLinesPerWindow == 5 && settings.accessLog.summaryWindow == .seconds(1))
    }

    @Test(
        arguments: [
            (["--log-file", "/var/log/f.log"], [:], "/var/log/f.log", 64 << 20, 4),
            (
                [],
                ["KINDRED_LOG_FILE": "e.log", "KINDRED_LOG_FILE_MAX_MB": "8", "KINDRED_LOG_FILE_KEEP": "0"],
                "e.log",
                8 << 20, 0
            ),
            (
                ["--log-file", "f.log", "--log-file-max-mb", "2"],
                ["KINDRED_LOG_FILE": "e.log", "KINDRED_LOG_FILE_MAX_MB": "8"],
                "f.log", 2 << 20, 4
            ),
        ] as [([String], [String: String], String, Int, Int)])
    func aFileRotatesAtItsSizeKeepingItsCount(
        arguments: [String], environment: [String: String], path: String, maxBytes: Int, keep: Int
    ) throws {
        let file = try #require(try settings(arguments, environment).file)
        #expect(file.path == path && file.maxBytes == maxBytes && file.keep == keep)
    }

    @Test(
        arguments: [(["--log-probes"], [:]), ([], ["KINDRED_LOG_PROBES": "1"])]
            as [([String], [String: String])])
    func probesAreLoggedWhenAsked(arguments: [String], environment: [String: String]) throws {
        #expect(try settings(arguments, environment).accessLog.logsProbes)
    }

    @Test(
        arguments: [
            (["--log-file", "f.log", "--log-file-max-mb", "0"], [:], "KINDRED_LOG_FILE_MAX_MB"),
            (["--log-file", "f.log"], ["KINDRED_LOG_FILE_KEEP": "many"], "KINDRED_LOG_FILE_KEEP"),
        ] as [([String], [String: String], String)])
    func aBadSizeOrCountIsRefusedByName(arguments: [String], environment: [String: String], name: String) {
        let error = #expect(throws: StartupError.self) { try settings(arguments, environment) }
        #expect(error?.description.contains(name) == true)
    }

    @Test func aLogFileThatCannotBeOpenedIsAStartupError() throws {
        let settings = try settings(["--log-file", "/nonexistent-directory/kindred.log"])
        let error = #expect(throws: StartupError.self) { try settings.writer() }
        #expect(error?.description.contains("/nonexistent-directory/kindred.log") == true)
    }
}
