/// Encodes `grpc-status-details-bin`: a `google.rpc.Status` whose details are `google.protobuf.Any`-wrapped
/// `ErrorInfo`, `BadRequest` and `RetryInfo`. Written against the wire format directly until the generated
/// `Google_Rpc_*` types land; this file is the only place that knows the encoding.
enum StatusDetails {
    /// The serialized `google.rpc.Status` for a status, message and details.
    static func encode(code: StatusCode, message: String, details: [ErrorDetail]) -> [UInt8] {
        var status = ProtoWriter()
        status.int64(field: 1, Int64(code.rawValue))
        status.string(field: 2, message)
        for detail in details {
            var any = ProtoWriter()
            any.string(field: 1, "type.googleapis.com/" + detail.protoName)
            any.bytes(field: 2, detail.encoded())
            status.bytes(field: 3, any.bytes)
        }
        return status.bytes
    }
}

extension ErrorDetail {
    fileprivate var protoName: String {
        switch self {
        case .errorInfo: "google.rpc.ErrorInfo"
        case .badRequest: "google.rpc.BadRequest"
        case .retryInfo: "google.rpc.RetryInfo"
        }
    }

    fileprivate func encoded() -> [UInt8] {
        var writer = ProtoWriter()
        switch self {
        case .errorInfo(let reason, let domain, let metadata):
            writer.string(field: 1, reason)
            writer.string(field: 2, domain)
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                var entry = ProtoWriter()
                entry.string(field: 1, key)
                entry.string(field: 2, value)
                writer.bytes(field: 3, entry.bytes)
            }
        case .badRequest(let violations):
            for violation in violations {
                var entry = ProtoWriter()
                entry.string(field: 1, violation.field)
                entry.string(field: 2, violation.description)
                writer.bytes(field: 1, entry.bytes)
            }
        case .retryInfo(let delay):
            var duration = ProtoWriter()
            duration.int64(field: 1, delay.components.seconds)
            duration.int64(field: 2, delay.components.attoseconds / 1_000_000_000)
            writer.bytes(field: 1, duration.bytes)
        }
        return writer.bytes
    }
}

/// The few protobuf wire-format writes the status details need; proto3 defaults are omitted.
private struct ProtoWriter {
    var bytes: [UInt8] = []

    mutating func int64(field: Int, _ value: Int64) {
        guard value != 0 else { return }
        varint(UInt64(field << 3))
        varint(UInt64(bitPattern: value))
    }

    mutating func string(field: Int, _ value: String) {
        guard !value.isEmpty else { return }
        bytes(field: field, Array(value.utf8))
    }

    mutating func bytes(field: Int, _ value: [UInt8]) {
        varint(UInt64(field << 3 | 2))
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
