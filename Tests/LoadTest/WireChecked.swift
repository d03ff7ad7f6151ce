import KindredMessages
import KindredRPC

/// The answer to a read whose content the tool does not use (GetMe, ListFeed, GetHome…): its bytes are checked
/// as decoding checks them (`ProtoMessage.validateWire`), so a malformed answer still fails the call, but not
/// built into Swift values. Decoding every answer was ~17% of the tool's samples at 1,000 calls/s (perf,
/// `--threads 1`), most of it these reads' strings and arrays: the tool's work, not the stack's.
struct WireChecked<Response: ProtoMessage>: ProtoMessage {
    init() {}

    init(serializedBytes bytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError) {
        try Response.validateWire(bytes, maxSize: maxSize)
    }

    /// Holds no field: the empty message.
    func serializedBytes() throws(MessageEncodingError) -> [UInt8] { [] }

    static var protoMessageName: String { Response.protoMessageName }
}

extension RPCClient {
    /// Calls a unary read whose answer the tool does not use, checking the answer without decoding it.
    func read<Request: ProtoMessage, Response: ProtoMessage>(
        _ method: MethodDescriptor, _ request: Request, answer: Response.Type, options: CallOptions
    ) async throws(RPCError) {
        _ = try await unary(
            method: method, request: request, options: options, responseType: WireChecked<Response>.self)
    }
}
