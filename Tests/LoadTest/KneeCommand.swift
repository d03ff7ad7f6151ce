import ArgumentParser
import Foundation
import LoadTestKit

/// `kindred-loadtest knee`: open-loop runs at `--from`, `--from + --step`, … up to `--to` calls a second, each
/// a whole `run`, until one passes the budget (`KneeSearch`); every step's report goes into one JSON, written
/// again after each step so a search cut short keeps what it found.
struct KneeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "knee",
        abstract:
            "Steps the open-loop rate until an RPC's p99 passes its budget; writes every step as one JSON.")

    @OptionGroup var options: RunOptions

    @Option(help: "The first rate, calls a second.")
    var from = 500.0

    @Option(help: "How much each step adds to the rate.")
    var step = 500.0

    @Option(help: "The highest rate tried.")
    var to = 8_000.0

    @Option(help: "The p99 budget of every RPC, in milliseconds.")
    var budgetMs = 500.0

    @Option(help: "RPCs with fewer calls in a step are not judged by their p99 (a handful of sign-ins).")
    var minCalls = 100

    @Option(help: "Write the search, every step's report with it, as JSON here.")
    var json = "var/loadtest/knee.json"

    func validate() throws {
        guard options.rate == nil else {
            throw ValidationError("knee sets the rate itself: use --from/--step/--to.")
        }
        guard !KneeSearch.rates(from: from, step: step, to: to).isEmpty else {
            throw ValidationError("--from and --step must be positive and --to at least --from.")
        }
        guard budgetMs > 0 else { throw ValidationError("--budget-ms must be positive.") }
    }

    func run() async throws {
        var search = KneeSearch(budget: .init(p99Ms: budgetMs, minCalls: minCalls))
        do {
            let mix = try options.loadMix()
            for rate in KneeSearch.rates(from: from, step: step, to: to) {
                say("knee: \(Int(rate)) calls/s")
                var step = options
                step.rate = rate
                let report = try await LoadRun(options: step, mix: mix).run()
                guard !report.interrupted else {
                    // A step cut short measured less than its duration: it is no step of the search.
                    say("knee: interrupted at \(Int(rate)) calls/s; the steps before it are in \(json)")
                    throw ExitCode(130)
                }
                let goOn = search.add(report, rate: rate)
                try search.json().write(to: URL(fileURLWithPath: json))
                for line in search.steps.last?.over ?? [] {
                    say("knee: over budget at \(Int(rate))/s: \(line)")
                }
                guard goOn else { break }
            }
        } catch let error as ToolError {
            print(error.description)
            throw ExitCode.failure
        }
        let knee = search.knee.map { "\(Int($0)) calls/s" } ?? "below \(Int(from)) calls/s"
        say("knee: \(knee) (budget p99 \(Int(budgetMs)) ms); every step in \(json)")
    }
}
