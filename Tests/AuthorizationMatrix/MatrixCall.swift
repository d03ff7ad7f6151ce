import KindredMessages
import KindredRPC
import KindredTestSupport

/// A request or response as bytes: the matrix encodes requests from the descriptors and only reads answers.
struct RawMessage: ProtoMessage {
    var bytes: [UInt8] = []

    init() {}
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(serializedBytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError) {
        bytes = Array(serializedBytes)
    }
    func serializedBytes() throws(MessageEncodingError) -> [UInt8] { bytes }
    static var protoMessageName: String { "kindred.authorization_matrix.Raw" }
}

/// How a call ended, as a caller sees it.
struct Answer: Equatable, CustomStringConvertible {
    let code: StatusCode
    let reason: String?
    let message: String
    /// The first response message, when there was one.
    var response: [UInt8] = []

    static func == (lhs: Answer, rhs: Answer) -> Bool {
        lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.message == rhs.message
    }

    var description: String { "\(code)\(reason.map { " \($0)" } ?? "")" }
}

/// Calls any method with raw bytes: unary, server-streaming (the first response, or the stream still open at a
/// short deadline, is past authorization) and client-streaming (one request message).
struct MatrixClient {
    let clients: [String: RPCClient]

    /// How long a stream that should admit its caller, and sends nothing, stays open before the cell takes it
    /// as admitted. A stream that should refuse gets `answerWait`: a slow refusal on a busy machine is still a
    /// refusal, and a stream that wrongly admits fails its cell at that deadline.
    static let openStreamWait: Duration = .seconds(2)
    static let answerWait: Duration = .seconds(20)

    func call(
        _ method: ProtoDescriptors.Method, request: [UInt8], token: String?,
        streamWait: Duration = openStreamWait
    ) async -> Answer {
        guard let client = clients[method.service] else {
            return Answer(code: .unimplemented, reason: nil, message: "")
        }
        let descriptor = MethodDescriptor(service: method.service, method: method.name)
        var options = CallOptions(timeout: method.serverStreaming ? streamWait : Self.answerWait)
        if let token { options.metadata.add("authorization", "Bearer \(token)") }
        do throws(RPCError) {
            if method.serverStreaming {
                var responses = client.serverStreaming(
                    method: descriptor, request: RawMessage(request), options: options,
                    responseType: RawMessage.self
                ).makeAsyncIterator()
                let first = try await responses.next(isolation: nil)
                return Answer(code: .ok, reason: nil, message: "", response: first?.bytes ?? [])
            }
            if method.clientStreaming {
                let response = try await client.clientStreaming(
                    method: descriptor, options: options, responseType: RawMessage.self
                ) { (writer: ClientRequestWriter<RawMessage>) in try await writer.write(RawMessage(request)) }
                return Answer(code: .ok, reason: nil, message: "", response: response.bytes)
            }
            let response = try await client.unary(
                method: descriptor, request: RawMessage(request), options: options,
                responseType: RawMessage.self)
            return Answer(code: .ok, reason: nil, message: "", response: response.bytes)
        } catch {
            return Answer(code: error.code, reason: error.reason, message: error.message)
        }
    }
}

extension Answer {
    /// The text at a path of field numbers in the response (`[1, 1]`: the id of the thing it returns).
    func text(at path: [Int]) -> String? {
        var bytes = response
        for number in path {
            guard let field = (try? WireReader.fields(of: bytes))?.first(where: { $0.number == number })
            else {
                return nil
            }
            bytes = field.bytes
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
