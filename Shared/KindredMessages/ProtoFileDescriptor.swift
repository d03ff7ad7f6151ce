/// One proto file compiled into Kindred, as server reflection serves it.
public struct ProtoFileDescriptor: Sendable, Equatable {
    /// The path protoc knew it by, e.g. `grpc/health/v1/health.proto`.
    public var name: String
    /// The files it imports, by name.
    public var dependencies: [String]
    /// A serialized `google.protobuf.FileDescriptorProto` (without source comments).
    public var serializedFileDescriptor: [UInt8]
    /// Fully-qualified names of the services it defines.
    public var serviceNames: [String]
    /// Fully-qualified messages (nested too), enums, services and methods (`pkg.Service.Method`).
    public var symbols: [String]

    public init(
        name: String, dependencies: [String], serializedFileDescriptor: [UInt8], serviceNames: [String],
        symbols: [String]
    ) {
        self.name = name
        self.dependencies = dependencies
        self.serializedFileDescriptor = serializedFileDescriptor
        self.serviceNames = serviceNames
        self.symbols = symbols
    }
}
