import ArgumentParser

/// `kindred-loadtest`: fills a running Kindred stack with users (`seed`) and drives it with virtual users
/// (`run`). Tests/LoadTest/README.md says what each measures.
@main
struct LoadTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kindred-loadtest",
        abstract:
            "Load-tests a running Kindred stack: seed it with users, then run virtual users against it.",
        subcommands: [SeedCommand.self, RunCommand.self])
}

/// A failure the person running the tool can act on: one line, said as it is, exit status 1.
struct ToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
