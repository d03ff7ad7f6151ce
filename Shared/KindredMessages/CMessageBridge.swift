internal import CKindredProto

/// A generated message's link to its protobuf-c struct. Internal: the C side never leaves this module.
protocol CMessageBridge {
    /// The protoc-c struct, e.g. `Grpc__Health__V1__HealthCheckRequest`.
    associatedtype CStruct

    /// The protoc-c descriptor of `CStruct`.
    static var cDescriptor: UnsafePointer<ProtobufCMessageDescriptor> { get }

    /// Copies every field out of an unpacked C message into Swift values.
    init(c: UnsafePointer<CStruct>)

    /// Sets the fields of an initialised C message, with memory owned by `arena`.
    func fill(_ c: UnsafeMutablePointer<CStruct>, arena: CArena) throws(MessageEncodingError)
}
