import Testing

@testable import KindredRuntime

@Suite struct ServiceCommandTests {
    let service: ServiceDefinition = {
        var service = ServiceDefinition(
            name: "identity", defaultPort: 50051, migrations: [], makeServices: { _ in [] })
        service.commands = [
            ServiceCommand(words: ["keys", "rotate"], summary: "Rotate.", action: .withDatabase { _ in }),
            ServiceCommand(words: ["clients", "hash-secret"], summary: "Hash.", action: .offline {}),
        ]
        return service
    }()

    @Test func aCommandIsFoundByItsWordsAndKeepsTheArgumentsAfterThem() throws {
        let (command, rest) = try #require(
            service.command(matching: ["keys", "rotate", "--database-url", "u"]))
        #expect(command.words == ["keys", "rotate"])
        #expect(rest == ["--database-url", "u"])
    }

    @Test(arguments: [[], ["serve"], ["migrate"], ["keys"], ["rotate", "keys"], ["--listen", "keys"]])
    func anythingElseIsLeftToServeAndMigrate(arguments: [String]) {
        #expect(service.command(matching: arguments) == nil)
    }

    @Test func helpListsTheCommandsAligned() {
        #expect(
            service.commandsHelp == """

                COMMANDS:
                  keys rotate          Rotate.
                  clients hash-secret  Hash.

                """)
        #expect(
            ServiceDefinition(name: "family", defaultPort: 1, migrations: [], makeServices: { _ in [] })
                .commandsHelp.isEmpty)
    }
}
