import KindredMessages

/// `grpc-status-details-bin`: a `google.rpc.Status` whose details are `google.protobuf.Any`-wrapped
/// `ErrorInfo`, `BadRequest` and `RetryInfo`.
enum StatusDetails {
    /// The serialized status; nil if a string holds a NUL (protoc-c cannot carry it), so the trailer is left out.
    static func encode(code: StatusCode, message: String, details: [ErrorDetail]) -> [UInt8]? {
        do {
            let anys = try details.map { try $0.packed() }
            return try Google_Rpc_Status(code: Int32(code.rawValue), message: message, details: anys)
                .serializedBytes()
        } catch {
            return nil
        }
    }

    /// The details a serialized status carries; detail types other than the three known ones are skipped.
    static func decode(_ bytes: [UInt8]) -> [ErrorDetail]? {
        guard let status = try? Google_Rpc_Status(serializedBytes: bytes) else { return nil }
        return status.details.compactMap { ErrorDetail(unpacking: $0) }
    }
}

extension ErrorDetail {
    fileprivate func packed() throws(MessageEncodingError) -> Google_Protobuf_Any {
        switch self {
        case .errorInfo(let reason, let domain, let metadata):
            return try Google_Protobuf_Any(
                packing: Google_Rpc_ErrorInfo(reason: reason, domain: domain, metadata: metadata))
        case .badRequest(let violations):
            let fields = violations.map {
                Google_Rpc_BadRequest.FieldViolation(field: $0.field, description: $0.description)
            }
            return try Google_Protobuf_Any(packing: Google_Rpc_BadRequest(fieldViolations: fields))
        case .retryInfo(let delay):
            let (seconds, attoseconds) = delay.components
            let duration = Google_Protobuf_Duration(
                seconds: seconds, nanos: Int32(attoseconds / 1_000_000_000))
            return try Google_Protobuf_Any(packing: Google_Rpc_RetryInfo(retryDelay: duration))
        }
    }

    /// The detail an `Any` holds, if it is one of the three this transport knows and decodes: its type name read
    /// once, then only that type decoded.
    fileprivate init?(unpacking any: Google_Protobuf_Any) {
        switch any.typeName {
        case Google_Rpc_ErrorInfo.protoMessageName:
            guard let info = try? Google_Rpc_ErrorInfo(serializedBytes: any.value) else { return nil }
            self = .errorInfo(reason: info.reason, domain: info.domain, metadata: info.metadata)
        case Google_Rpc_BadRequest.protoMessageName:
            guard let request = try? Google_Rpc_BadRequest(serializedBytes: any.value) else { return nil }
            self = .badRequest(
                request.fieldViolations.map { FieldViolation(field: $0.field, description: $0.description) })
        case Google_Rpc_RetryInfo.protoMessageName:
            guard let info = try? Google_Rpc_RetryInfo(serializedBytes: any.value) else { return nil }
            let delay = info.retryDelay ?? Google_Protobuf_Duration()
            self = .retryInfo(retryDelay: .seconds(delay.seconds) + .nanoseconds(Int64(delay.nanos)))
        default:
            return nil
        }
    }
}
