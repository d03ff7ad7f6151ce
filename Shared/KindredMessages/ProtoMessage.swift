/// A protobuf message as service code sees it: a plain Swift value, converted to and from the
/// protobuf-c representation only at the edge (decoding and encoding).
public protocol ProtoMessage: Sendable, Equatable {
    /// A message with every field at its default.
    init()

    /// Decodes wire bytes, refusing input longer than `maxSize`, malformed input, invalid UTF-8 and
    /// strings with an embedded NUL (protobuf-c cannot carry one).
    init(serializedBytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError)

    /// Encodes to wire bytes.
    func serializedBytes() throws(MessageEncodingError) -> [UInt8]

    /// The fully-qualified protobuf name, e.g. `grpc.health.v1.HealthCheckRequest`.
    static var protoMessageName: String { get }
}

extension ProtoMessage {
    /// The largest message decoded when the caller names no limit: gRPC's customary 4 MiB.
    public static var defaultMaxSize: Int { 4 << 20 }

    /// Decodes wire bytes held in an array.
    @inlinable
    public init(serializedBytes bytes: [UInt8], maxSize: Int = Self.defaultMaxSize)
        throws(MessageDecodingError)
    {
        // withUnsafeBytes is untyped `rethrows`, so the typed error travels out in a Result.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(MessageDecodingError) in try Self(serializedBytes: buffer, maxSize: maxSize) }
        }
        self = try result.get()
    }
}

/// Why wire bytes could not be decoded into a message.
public struct MessageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case tooLarge(size: Int, limit: Int)
        case malformed
        case invalidUTF8
        case embeddedNUL
    }

    public var messageName: String
    public var reason: Reason

    public init(messageName: String, reason: Reason) {
        self.messageName = messageName
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .tooLarge(let size, let limit): "\(messageName): \(size) bytes exceeds the limit of \(limit)"
        case .malformed: "\(messageName): malformed wire bytes"
        case .invalidUTF8: "\(messageName): a string field is not valid UTF-8"
        case .embeddedNUL: "\(messageName): a string field contains a NUL character"
        }
    }
}

/// Why a message could not be encoded.
public struct MessageEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field (dotted path from the message) whose string holds a NUL character.
    public var fieldPath: String

    public init(fieldPath: String) {
        self.fieldPath = fieldPath
    }

    public var description: String { "string field \(fieldPath) contains a NUL character" }
}
