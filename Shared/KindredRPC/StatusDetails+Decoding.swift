extension StatusDetails {
    /// The details a serialized `google.rpc.Status` (from `grpc-status-details-bin`) carries; detail
    /// types other than the three known ones are skipped; nil when the bytes are not a valid Status.
    static func decode(_ bytes: [UInt8]) -> [ErrorDetail]? {
        var details: [ErrorDetail] = []
        var reader = ProtoReader(bytes[...])
        while let field = reader.next() {
            if case .bytes(3, let any) = field, let detail = decodeAny(any) { details.append(detail) }
        }
        return reader.failed ? nil : details
    }

    /// Unwraps a `google.protobuf.Any` holding one of the known `google.rpc` detail types.
    private static func decodeAny(_ bytes: ArraySlice<UInt8>) -> ErrorDetail? {
        var typeURL = "", value: ArraySlice<UInt8> = []
        var reader = ProtoReader(bytes)
        while let field = reader.next() {
            if case .bytes(1, let url) = field { typeURL = String(decoding: url, as: UTF8.self) }
            if case .bytes(2, let payload) = field { value = payload }
        }
        switch typeURL.split(separator: "/").last {
        case "google.rpc.ErrorInfo": return errorInfo(value)
        case "google.rpc.BadRequest": return badRequest(value)
        case "google.rpc.RetryInfo": return retryInfo(value)
        default: return nil
        }
    }

    private static func errorInfo(_ bytes: ArraySlice<UInt8>) -> ErrorDetail {
        var reason = "", domain = "", metadata: [String: String] = [:]
        var reader = ProtoReader(bytes)
        while let field = reader.next() {
            switch field {
            case .bytes(1, let value): reason = String(decoding: value, as: UTF8.self)
            case .bytes(2, let value): domain = String(decoding: value, as: UTF8.self)
            case .bytes(3, let entry):
                let pair = stringPair(entry)
                metadata[pair.0] = pair.1
            default: break
            }
        }
        return .errorInfo(reason: reason, domain: domain, metadata: metadata)
    }

    private static func badRequest(_ bytes: ArraySlice<UInt8>) -> ErrorDetail {
        var violations: [ErrorDetail.FieldViolation] = []
        var reader = ProtoReader(bytes)
        while let field = reader.next() {
            guard case .bytes(1, let entry) = field else { continue }
            let pair = stringPair(entry)
            violations.append(.init(field: pair.0, description: pair.1))
        }
        return .badRequest(violations)
    }

    private static func retryInfo(_ bytes: ArraySlice<UInt8>) -> ErrorDetail {
        var seconds: Int64 = 0, nanos: Int64 = 0
        var reader = ProtoReader(bytes)
        while let field = reader.next() {
            guard case .bytes(1, let duration) = field else { continue }
            var inner = ProtoReader(duration)
            while let part = inner.next() {
                if case .varint(1, let value) = part { seconds = Int64(bitPattern: value) }
                if case .varint(2, let value) = part { nanos = Int64(bitPattern: value) }
            }
        }
        return .retryInfo(retryDelay: .seconds(seconds) + .nanoseconds(nanos))
    }

    /// Fields 1 and 2 of a message as strings (a map entry, or a field violation).
    private static func stringPair(_ bytes: ArraySlice<UInt8>) -> (String, String) {
        var first = "", second = ""
        var reader = ProtoReader(bytes)
        while let field = reader.next() {
            if case .bytes(1, let value) = field { first = String(decoding: value, as: UTF8.self) }
            if case .bytes(2, let value) = field { second = String(decoding: value, as: UTF8.self) }
        }
        return (first, second)
    }
}
