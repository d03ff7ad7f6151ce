/// The parts of `google.protobuf.FileDescriptorProto` the matrix reads: services with their methods, and
/// messages with their fields, so a row can name a request's fields as the proto spells them.
struct ProtoDescriptors {
    struct Method {
        let service: String
        let name: String
        let inputType: String
        let clientStreaming: Bool
        let serverStreaming: Bool
        /// `idempotency_level = NO_SIDE_EFFECTS`: a child-mode token may call it.
        let readOnly: Bool
    }

    struct Field {
        let number: Int
        /// `FieldDescriptorProto.Type`: 9 string, 11 message, 12 bytes, the rest varints in these protos.
        let type: Int
        /// The message type of a message field, fully qualified without the leading dot.
        let typeName: String
    }

    private(set) var methods: [Method] = []
    private(set) var messages: [String: [String: Field]] = [:]

    /// Reads serialized `FileDescriptorProto`s, as server reflection answers them.
    init(files: [[UInt8]]) throws {
        for file in files { try read(file: file) }
    }

    private mutating func read(file: [UInt8]) throws {
        let fields = try WireReader.fields(of: file)
        let package = fields.first { $0.number == 2 }?.text ?? ""
        for message in fields where message.number == 4 { try read(message: message.bytes, in: package) }
        for service in fields where service.number == 6 { try read(service: service.bytes, in: package) }
    }

    private mutating func read(message: [UInt8], in scope: String) throws {
        let fields = try WireReader.fields(of: message)
        let name = "\(scope).\(fields.first { $0.number == 1 }?.text ?? "")"
        var byName: [String: Field] = [:]
        for field in fields where field.number == 2 {
            let parts = try WireReader.fields(of: field.bytes)
            let fieldName = parts.first { $0.number == 1 }?.text ?? ""
            byName[fieldName] = Field(
                number: parts.first { $0.number == 3 }?.varint ?? 0,
                type: parts.first { $0.number == 5 }?.varint ?? 0,
                typeName: String((parts.first { $0.number == 6 }?.text ?? "").drop { $0 == "." }))
        }
        messages[name] = byName
        for nested in fields where nested.number == 3 { try read(message: nested.bytes, in: name) }
    }

    private mutating func read(service: [UInt8], in package: String) throws {
        let fields = try WireReader.fields(of: service)
        let serviceName = "\(package).\(fields.first { $0.number == 1 }?.text ?? "")"
        for method in fields where method.number == 2 {
            let parts = try WireReader.fields(of: method.bytes)
            let options = try parts.first { $0.number == 4 }.map { try WireReader.fields(of: $0.bytes) } ?? []
            methods.append(
                Method(
                    service: serviceName, name: parts.first { $0.number == 1 }?.text ?? "",
                    inputType: String((parts.first { $0.number == 2 }?.text ?? "").drop { $0 == "." }),
                    clientStreaming: parts.first { $0.number == 5 }?.varint == 1,
                    serverStreaming: parts.first { $0.number == 6 }?.varint == 1,
                    readOnly: options.first { $0.number == 34 }?.varint == 1))
        }
    }
}

/// Protobuf's wire format, as far as descriptors need it: varints and length-delimited fields.
enum WireReader {
    struct Field {
        let number: Int
        let varint: Int?
        let bytes: [UInt8]
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    struct Malformed: Error {}

    static func fields(of bytes: [UInt8]) throws -> [Field] {
        var fields: [Field] = []
        var index = 0
        func varint() throws -> Int {
            var value = 0
            var shift = 0
            while true {
                guard index < bytes.count, shift < 64 else { throw Malformed() }
                let byte = bytes[index]
                index += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        while index < bytes.count {
            let key = try varint()
            switch key & 7 {
            case 0: fields.append(Field(number: key >> 3, varint: try varint(), bytes: []))
            case 1: index += 8
            case 5: index += 4
            case 2:
                let length = try varint()
                guard length >= 0, index + length <= bytes.count else { throw Malformed() }
                fields.append(
                    Field(number: key >> 3, varint: nil, bytes: Array(bytes[index..<index + length])))
                index += length
            default: throw Malformed()
            }
        }
        return fields
    }
}
