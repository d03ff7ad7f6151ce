import KindredAuth

/// The header fields that end a gRPC call: status, message, details and trailing metadata.
enum StatusTrailers {
    /// Trailer fields for a status; `trailers-only` responses prepend the response headers themselves.
    static func fields(
        code: StatusCode, message: String, details: [ErrorDetail], metadata: Metadata
    ) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("grpc-status", String(code.rawValue))]
        if !message.isEmpty { fields.append(("grpc-message", PercentEncoding.encode(message))) }
        if !details.isEmpty, let status = StatusDetails.encode(code: code, message: message, details: details)
        {
            fields.append(("grpc-status-details-bin", Base64.encode(status)))
        }
        metadata.appendHeaderFields(to: &fields)
        return fields
    }

    /// The response header fields sent before the first message, or at the head of a trailers-only response.
    static func responseHeaders(encoding: MessageEncoding, metadata: Metadata) -> [(
        name: String, value: String
    )] {
        var fields: [(name: String, value: String)] = [
            (":status", "200"), ("content-type", "application/grpc"),
        ]
        if encoding != .identity { fields.append(("grpc-encoding", encoding.rawValue)) }
        fields.append(("grpc-accept-encoding", MessageEncoding.acceptedList))
        metadata.appendHeaderFields(to: &fields)
        return fields
    }
}
