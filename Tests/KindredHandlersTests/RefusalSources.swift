import Foundation

/// Every message a Kindred server can refuse a call with, read from the Swift sources of `Services/` and
/// `Shared/`: the message argument of each `refusal(`, `.authentication(` and `RPCError(` construction, and
/// of each function that passes its own `message` parameter on to one (found by following them, so a new
/// wrapper is scanned without being named here). Reading the sources, not a list each service keeps, means
/// a refusal added later is checked without anyone remembering to register it.
struct RefusalSources {
    /// A message as written: where, the `ErrorInfo.reason` written beside it if any, and its literal text
    /// (interpolations as written).
    struct Message: CustomStringConvertible {
        let place: String
        let reason: String?
        let text: String
        var description: String { "\(place): \"\(text)\"" }
    }

    /// A construction whose message is not a literal, nor a `message` parameter passed on.
    struct Unreadable: CustomStringConvertible {
        let place: String
        let arguments: String
        var description: String { "\(place): (\(arguments))" }
    }

    private(set) var messages: [Message] = []
    /// What `FieldViolations` is told is wrong with a field, written as a literal: `add`, `single` and
    /// `refuse` make the sentence of it ("is required" of `page_token` is "Page token is required.").
    private(set) var fieldProblems: [Message] = []
    private(set) var unreadable: [Unreadable] = []

    /// Files whose errors never reach a caller as a refusal, and why: the client's own errors stay in the
    /// process that made the call (a service maps a peer's failure to an answer of its own, `PeerCall`), and
    /// the transport's answers a stock gRPC client only gets for a broken request, in gRPC's own words.
    static let exemptFiles: [String: String] = [
        "Shared/KindredRPC/RPCClient.swift": "client side",
        "Shared/KindredRPC/RPCClient+Unary.swift": "client side",
        "Shared/KindredRPC/RPCClient+ServerStreaming.swift": "client side",
        "Shared/KindredRPC/ClientResponseReader.swift": "client side",
        "Shared/KindredRPC/ClientConnection.swift": "client side",
        "Shared/KindredRPC/ClientConnection+Socket.swift": "client side",
        "Shared/KindredRPC/ClientConnectionPool.swift": "client side",
        "Shared/KindredRPC/ServerCall.swift": "HTTP/2 and gRPC framing errors of a broken client",
        "Shared/KindredRPC/ServerCall+Handler.swift": "undecodable request bytes; the generic INTERNAL",
        "Shared/KindredRPC/ServerCallState+Events.swift": "broken call protocol; the deadline",
    ]

    /// Statuses whose message the transport replaces with a generic sentence (the errors' cause goes to the
    /// log): what is written for them is for the log.
    static let genericStatuses: Set<String> = [".internal", ".unavailable"]

    /// Non-literal messages checked by a test of their own, and where.
    static let checkedElsewhere: [String: String] = [
        "reason.message": "TokenVerificationError.message: RefusalMessageTests.tokenRefusalsAreSentences",
        "violations.map(\\.description).joined(separator: \" \")":
            "FieldViolations' descriptions: RefusalMessageTests.fieldViolationsReadAsSentences",
    ]

    /// Argument labels whose literals are not the message.
    private static let otherLabels: Set<String> = [
        "domain", "metadata", "details", "trailers", "retryAfter", "field", "cause",
    ]

    /// Scans `files` (path → text).
    init(files: [(path: String, text: String)]) {
        for file in files {
            for call in SwiftCalls(file.text, named: ["add", "single", "refuse"]) {
                recordFieldProblem(call, in: file.path)
            }
        }
        var constructors: Set<String> = ["refusal", "authentication", "RPCError"]
        var scanned: Set<String> = []
        // A wrapper found in one pass has its callers scanned in the next.
        while constructors != scanned {
            let pass = constructors.subtracting(scanned)
            scanned.formUnion(pass)
            for file in files where Self.exemptFiles[file.path] == nil {
                for call in SwiftCalls(file.text, named: pass) {
                    if let wrapper = record(call, in: file.path) { constructors.insert(wrapper) }
                }
            }
        }
    }

    /// Records the problem `call` states of a field named by a literal, when it states one as a literal.
    private mutating func recordFieldProblem(_ call: SwiftCalls.Call, in path: String) {
        guard call.arguments.count == 2, call.arguments[0].literal != nil,
            let problem = call.arguments[1].literal
        else { return }
        fieldProblems.append(Message(place: "\(path):\(call.line)", reason: nil, text: problem))
    }

    /// Records the message of `call`; answers the enclosing function's name when it passes its own `message`
    /// parameter on.
    private mutating func record(_ call: SwiftCalls.Call, in path: String) -> String? {
        let place = "\(path):\(call.line)"
        let arguments = call.arguments.filter { !Self.otherLabels.contains($0.label ?? "") }
        guard !Self.genericStatuses.contains(arguments.first?.text ?? "") else { return nil }
        let literals = arguments.compactMap(\.literal)
        let written = literals.filter { !Self.isReason($0) }
        if !written.isEmpty {
            let reason = literals.first(where: Self.isReason)
            messages += written.map { Message(place: place, reason: reason, text: $0) }
            return nil
        }
        let passed = arguments.map(\.text)
        if passed.contains("message"), let function = call.enclosingFunction { return function }
        // `refusal(of:for:on:)` and the like name no status: another function of the same name.
        guard let first = arguments.first, first.label == nil,
            first.text.hasPrefix(".") || first.text == "code"
        else { return nil }
        if !passed.contains(where: { Self.checkedElsewhere[$0] != nil }) {
            unreadable.append(Unreadable(place: place, arguments: passed.joined(separator: ", ")))
        }
        return nil
    }

    /// `ErrorInfo.reason`s are upper snake case.
    static func isReason(_ literal: String) -> Bool {
        !literal.isEmpty && literal.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
    }

    /// What a field's problem must be for the sentence made of it to read: what is said of the field, in
    /// lower case, without the full stop the sentence ends with.
    static func isFieldProblem(_ problem: String) -> Bool {
        guard let first = problem.first, let last = problem.last else { return false }
        return first.isLowercase && last != "." && !problem.contains("\n")
    }

    /// A short plain sentence an app can show as it is: a capital letter first, a full stop (or a question or
    /// an exclamation mark) last, one line, at most 160 characters.
    static func isShowable(_ message: String) -> Bool {
        guard let first = message.first, let last = message.last else { return false }
        return first.isUppercase && ".?!".contains(last) && message.count <= 160
            && !message.contains("\n") && !message.contains("  ")
    }

    /// Every `.swift` file under `Services/` and `Shared/` of the repository, generated code left out.
    static func repositoryFiles() throws -> [(path: String, text: String)] {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [(String, String)] = []
        for root in ["Services", "Shared"] {
            let base = repository.appendingPathComponent(root)
            guard let walk = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walk
            where relative.hasSuffix(".swift") && !relative.contains("Generated") {
                let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
                files.append(("\(root)/\(relative)", text))
            }
        }
        return files
    }
}
