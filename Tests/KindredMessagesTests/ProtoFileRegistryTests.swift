import KindredMessages
import Testing

@Suite struct ProtoFileRegistryTests {
    @Test func listsEveryProtoWithDependenciesFirst() {
        let names = ProtoFileRegistry.files.map(\.name)
        for required in [
            "google/protobuf/any.proto", "google/protobuf/duration.proto", "google/rpc/status.proto",
            "google/rpc/error_details.proto", "grpc/health/v1/health.proto", "grpc/reflection/v1/reflection.proto",
            "grpc/reflection/v1alpha/reflection.proto", "grpc/testing/test.proto", "kindred/common/v1/date.proto",
        ] {
            #expect(names.contains(required))
        }
        for (index, file) in ProtoFileRegistry.files.enumerated() {
            for dependency in file.dependencies {
                #expect(names.firstIndex(of: dependency).map { $0 < index } == true, "\(file.name) before \(dependency)")
            }
        }
    }

    @Test func embedsEachSerializedFileDescriptor() {
        for file in ProtoFileRegistry.files {
            // FileDescriptorProto field 1 is the file name.
            let prefix = [0x0A, UInt8(file.name.utf8.count)] + Array(file.name.utf8)
            #expect(file.serializedFileDescriptor.starts(with: prefix), "\(file.name)")
        }
    }

    @Test func namesServicesMethodsAndNestedTypes() throws {
        let health = try #require(ProtoFileRegistry.file(named: "grpc/health/v1/health.proto"))
        #expect(health.serviceNames == ["grpc.health.v1.Health"])
        #expect(health.symbols.contains("grpc.health.v1.Health.Watch"))
        #expect(health.symbols.contains("grpc.health.v1.HealthCheckResponse.ServingStatus"))
        #expect(ProtoFileRegistry.file(containingSymbol: "grpc.testing.TestService.UnaryCall")?.name == "grpc/testing/test.proto")
        #expect(ProtoFileRegistry.file(containingSymbol: "google.rpc.BadRequest.FieldViolation")?.name == "google/rpc/error_details.proto")
        #expect(ProtoFileRegistry.file(containingSymbol: "no.such.Symbol") == nil)
    }
}
