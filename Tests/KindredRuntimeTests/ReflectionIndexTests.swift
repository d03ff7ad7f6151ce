import KindredMessages
import Testing

@testable import KindredRuntime

@Suite struct ReflectionIndexTests {
    let index = ReflectionIndex(servedServices: ["grpc.health.v1.Health", "grpc.testing.TestService"])

    @Test func listsServedServicesSorted() {
        #expect(
            index.answer(.listServices) == .services(["grpc.health.v1.Health", "grpc.testing.TestService"]))
    }

    @Test func fileByNameComesFirstThenEveryImportOnce() throws {
        guard case .files(let files) = index.answer(.fileByFilename("grpc/testing/test.proto")) else {
            Issue.record("expected files")
            return
        }
        let names = try files.map { try Self.fileName(of: $0) }
        #expect(names.first == "grpc/testing/test.proto")
        #expect(
            Set(names) == [
                "grpc/testing/test.proto", "grpc/testing/empty.proto", "grpc/testing/messages.proto",
            ])
        #expect(names.count == Set(names).count)
    }

    @Test(arguments: [
        ("grpc.health.v1.Health", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.Health.Watch", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.HealthCheckResponse.ServingStatus", "grpc/health/v1/health.proto"),
        (".google.rpc.Status", "google/rpc/status.proto"),
    ])
    func symbolsResolveToTheirFile(symbol: String, file: String) throws {
        guard case .files(let files) = index.answer(.fileContainingSymbol(symbol)), let first = files.first
        else {
            Issue.record("expected files for \(symbol)")
            return
        }
        #expect(try Self.fileName(of: first) == file)
    }

    @Test(arguments: [
        ReflectionQuery.fileByFilename("nope.proto"),
        .fileContainingSymbol("kindred.Nope"),
        .fileContainingExtension(containingType: "grpc.testing.Empty", number: 100),
        .allExtensionNumbers(ofType: "kindred.Nope"),
    ])
    func unknownNamesAreNotFound(query: ReflectionQuery) {
        guard case .error(let code, _) = index.answer(query) else {
            Issue.record("expected an error for \(query)")
            return
        }
        #expect(code == .notFound)
    }

    @Test func knownTypeHasNoExtensionNumbers() {
        #expect(
            index.answer(.allExtensionNumbers(ofType: "grpc.testing.Empty"))
                == .extensionNumbers(baseType: "grpc.testing.Empty", numbers: []))
    }

    @Test func aRequestWithoutAQueryIsInvalid() {
        guard case .error(let code, _) = index.answer(.missing) else {
            Issue.record("expected an error")
            return
        }
        #expect(code == .invalidArgument)
    }

    /// Field 1 of a FileDescriptorProto is its name: read it straight off the wire.
    static func fileName(of descriptor: [UInt8]) throws -> String {
        try #require(descriptor.first == 0x0A)
        let length = Int(try #require(descriptor.dropFirst().first))
        try #require(length < 0x80)
        return String(decoding: descriptor[2..<(2 + length)], as: UTF8.self)
    }
}
