/// A value a row puts in a request field, named by its proto path (`target.event_id`).
enum FieldValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    case text(String)
    case number(Int)
    case texts([String])
    case bytes([UInt8])

    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .number(value ? 1 : 0) }
}

/// Encodes a request from field paths through the descriptors reflection serves, so the table names fields
/// as the proto does and a renamed field fails the test instead of sending an empty request.
struct RequestEncoder {
    let descriptors: ProtoDescriptors

    struct UnknownField: Error, CustomStringConvertible {
        let message: String
        let path: String
        var description: String { "\(message) has no field \(path)" }
    }

    func encode(_ fields: [String: FieldValue], as message: String) throws -> [UInt8] {
        guard let known = descriptors.messages[message] else {
            throw UnknownField(message: message, path: "*")
        }
        var nested: [String: [String: FieldValue]] = [:]
        var out: [UInt8] = []
        for (path, value) in fields.sorted(by: { $0.key < $1.key }) {
            let head = path.prefix { $0 != "." }
            guard let field = known[String(head)] else { throw UnknownField(message: message, path: path) }
            if head.count < path.count {
                nested[String(head), default: [:]][String(path.dropFirst(head.count + 1))] = value
                continue
            }
            switch value {
            case .text(let text): Self.appendBytes(Array(text.utf8), field: field.number, to: &out)
            case .texts(let texts):
                for text in texts { Self.appendBytes(Array(text.utf8), field: field.number, to: &out) }
            case .bytes(let bytes): Self.appendBytes(bytes, field: field.number, to: &out)
            case .number(let number):
                Self.appendVarint(UInt64(field.number << 3), to: &out)
                Self.appendVarint(UInt64(bitPattern: Int64(number)), to: &out)
            }
        }
        for (name, subfields) in nested.sorted(by: { $0.key < $1.key }) {
            let field = known[name]!
            Self.appendBytes(try encode(subfields, as: field.typeName), field: field.number, to: &out)
        }
        return out
    }

    private static func appendBytes(_ bytes: [UInt8], field: Int, to out: inout [UInt8]) {
        appendVarint(UInt64(field << 3 | 2), to: &out)
        appendVarint(UInt64(bytes.count), to: &out)
        out += bytes
    }

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }
}
