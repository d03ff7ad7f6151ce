import KindredMessages
import Testing

@Suite struct ProtoFileRegistryTests {
    @Test func listsEveryProtoWithDependenciesFirst() {
        let names = ProtoFileRegistry.files.map(\.name)
        for required in [
            "google/protobuf/any.proto", "google/protobuf/duration.proto", "google/rpc/status.proto",
            "google/rpc/error_details.proto", "grpc/health/v1/health.proto",
            "grpc/reflection/v1/reflection.proto",
            "grpc/reflection/v1alpha/reflection.proto", "grpc/testing/test.proto",
            "google/protobuf/timestamp.proto", "google/protobuf/field_mask.proto", "google/type/date.proto",
        ] {
            #expect(names.contains(required))
        }
        for (index, file) in ProtoFileRegistry.files.enumerated() {
            for dependency in file.dependencies {
                #expect(
                    names.firstIndex(of: dependency).map { $0 < index } == true,
                    "\(file.name) before \(dependency)")
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
        #expect(
            ProtoFileRegistry.file(containingSymbol: "grpc.testing.TestService.UnaryCall")?.name
                == "grpc/testing/test.proto")
        #expect(
            ProtoFileRegistry.file(containingSymbol: "google.rpc.BadRequest.FieldViolation")?.name
                == "google/rpc/error_details.proto")
        #expect(ProtoFileRegistry.file(containingSymbol: "no.such.Symbol") == nil)
    }

    /// Python's google.protobuf 4.21 (`any_pb2` / `duration_pb2`): a client holding these accepts ours
    /// only if they are byte-identical.
    @Test(arguments: [
        (
            "google/protobuf/any.proto",
            "0a19676f6f676c652f70726f746f6275662f616e792e70726f746f120f676f6f676c652e70726f746f62756622260a03416e79"
                + "12100a08747970655f75726c180120012809120d0a0576616c756518022001280c42760a13636f6d2e676f6f676c652e70"
                + "726f746f6275664208416e7950726f746f50015a2c676f6f676c652e676f6c616e672e6f72672f70726f746f6275662f74"
                + "797065732f6b6e6f776e2f616e797062a20203475042aa021e476f6f676c652e50726f746f6275662e57656c6c4b6e6f77"
                + "6e5479706573620670726f746f33"
        ),
        (
            "google/protobuf/duration.proto",
            "0a1e676f6f676c652f70726f746f6275662f6475726174696f6e2e70726f746f120f676f6f676c652e70726f746f62756622"
                + "2a0a084475726174696f6e120f0a077365636f6e6473180120012803120d0a056e616e6f731802200128054283010a1363"
                + "6f6d2e676f6f676c652e70726f746f627566420d4475726174696f6e50726f746f50015a31676f6f676c652e676f6c616e"
                + "672e6f72672f70726f746f6275662f74797065732f6b6e6f776e2f6475726174696f6e7062f80101a20203475042aa021e"
                + "476f6f676c652e50726f746f6275662e57656c6c4b6e6f776e5479706573620670726f746f33"
        ),
    ])
    func wellKnownTypesMatchTheOfficialDescriptors(name: String, official: String) throws {
        let file = try #require(ProtoFileRegistry.file(named: name))
        #expect(file.serializedFileDescriptor == hex(official))
    }
}
