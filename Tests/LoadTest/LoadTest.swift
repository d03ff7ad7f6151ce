import ArgumentParser
import Foundation

/// `kindred-loadtest`: fills a running Kindred stack with users (`seed`) and drives it with virtual users
/// (`run`). Tests/LoadTest/README.md says what each measures.
@main
struct LoadTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kindred-loadtest",
        abstract:
            "Load-tests a running Kindred stack: seed it with users, then run virtual users against it.",
        subcommands: [SeedCommand.self, RunCommand.self, KneeCommand.self])
}

/// A failure the person running the tool can act on: one line, said as it is, exit status 1.
struct ToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// One line on standard output, written at once: progress must show as it happens also when the output goes
/// to a file or a pipe, where `print` holds it in a buffer.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
