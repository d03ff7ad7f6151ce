import KindredMessages
import KindredRPC

/// `test.Upload`: client-streaming methods that count what they read, answering "messages,bytes".
/// A message "refuse" makes them fail at once; `SumLater` reads nothing until `gate` opens; `First`
/// answers with the first message and reads no more.
struct ClientUploadTestService: RPCService {
    let publicMethods = MethodSet.all
    let gate: ClientTestGate

    static func method(_ name: String) -> MethodDescriptor {
        MethodDescriptor(service: "test.Upload", method: name)
    }

    static let refused = RPCError(
        .failedPrecondition, "This upload was refused.",
        details: [.errorInfo(reason: "UPLOAD_REFUSED", domain: "kindred.test", metadata: [:])])

    func registerMethods(with router: inout RPCRouter) {
        router.registerClientStreaming(Self.method("Sum")) {
            (requests: RequestStream<ClientTestText>, _: ServerContext) -> ClientTestText in
            try await Self.sum(requests)
        }
        router.registerClientStreaming(Self.method("First")) {
            (requests: RequestStream<ClientTestText>, _: ServerContext) -> ClientTestText in
            var iterator = requests.makeAsyncIterator()
            return try await iterator.next() ?? ClientTestText("none")
        }
        let gate = gate
        router.registerClientStreaming(Self.method("SumLater")) {
            (requests: RequestStream<ClientTestText>, _: ServerContext) -> ClientTestText in
            await gate.wait()
            return try await Self.sum(requests)
        }
    }

    private static func sum(_ requests: RequestStream<ClientTestText>) async throws -> ClientTestText {
        var count = 0
        var bytes = 0
        for try await request in requests {
            if request.text == "refuse" { throw refused }
            if request.text == "busy" { throw RPCError.serverOverloaded(retryAfter: .milliseconds(250)) }
            count += 1
            bytes += request.text.utf8.count
        }
        return ClientTestText("\(count),\(bytes)")
    }
}
