extension Google_Protobuf_Any {
    /// The type URL prefix every gRPC implementation uses for `google.protobuf.Any`.
    public static let typeURLPrefix = "type.googleapis.com/"

    /// Wraps `message` with its type URL, e.g. an `ErrorInfo` for `google.rpc.Status.details`.
    public init<M: ProtoMessage>(packing message: M) throws(MessageEncodingError) {
        self.init(typeURL: Self.typeURLPrefix + M.protoMessageName, value: try message.serializedBytes())
    }

    /// The wrapped message's full name: the type URL after its last `/` (all of it, without one). A view of
    /// the URL, not a copy: a client reads one for every detail of every error (each refusal under overload).
    public var typeName: Substring {
        guard let slash = typeURL.lastIndex(of: "/") else { return typeURL[...] }
        return typeURL[typeURL.index(after: slash)...]
    }

    /// Whether the wrapped message is an `M` (the type URL's last path segment is its full name).
    public func holds<M: ProtoMessage>(_ type: M.Type) -> Bool {
        typeName == M.protoMessageName
    }

    /// The wrapped message if it is an `M`, or nil if it is another type.
    public func unpack<M: ProtoMessage>(
        _ type: M.Type, maxSize: Int = M.defaultMaxSize
    ) throws(MessageDecodingError) -> M? {
        guard holds(type) else { return nil }
        return try M(serializedBytes: value, maxSize: maxSize)
    }
}
