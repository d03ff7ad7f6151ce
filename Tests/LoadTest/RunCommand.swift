import ArgumentParser
import Foundation
import LoadTestKit

/// `kindred-loadtest run`: the seeded users as virtual users for `--duration` seconds after `--ramp-up`,
/// closed loop (each waits for its answer, then thinks) or open loop (`--rate`).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Drives a seeded stack with virtual users and reports latencies per RPC.")

    @OptionGroup var options: RunOptions

    @Option(help: "Write the whole run as JSON here.")
    var json: String?

    func run() async throws {
        do {
            let report = try await LoadRun(options: options, mix: try options.loadMix()).run()
            if let json { try report.json().write(to: URL(fileURLWithPath: json)) }
            guard !report.interrupted else {
                // 128 + SIGINT, as a shell reports a command Ctrl-C ended.
                let seconds = String(format: "%.1f", report.durationS)
                print("INTERRUPTED after \(seconds) s: the figures cover that much.")
                throw ExitCode(130)
            }
            let failed = report.rpcs.values.reduce(0) { $0 + $1.failed }
            if failed > 0 || report.realtime.missed > 0 {
                print("FAILED: \(failed) unexpected failures, \(report.realtime.missed) missed deliveries")
                throw ExitCode.failure
            }
        } catch let error as ToolError {
            print(error.description)
            throw ExitCode.failure
        }
    }
}
