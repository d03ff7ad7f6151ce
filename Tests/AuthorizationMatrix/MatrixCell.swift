import KindredRPC

/// One call of the matrix and its verdict.
struct MatrixCell: Sendable {
    let method: String
    let caller: CallerKind
    let expected: Expectation
    let answer: Answer
    /// What the same caller gets for ids that name nothing, for a cell that must not tell the two apart.
    let answerForNothing: Answer?
    let streaming: Bool
    let allowedNotFound: Set<String>

    var passed: Bool {
        switch expected {
        case .unauthenticated: return answer.code == .unauthenticated && answer.reason == caller.refusalReason
        case .denied: return answer.code == .permissionDenied
        case .deniedAsForNothing: return answer.code == .permissionDenied && answer == answerForNothing
        case .hidden: return answer.code == .notFound && answer == answerForNothing
        case .allowed:
            switch answer.code {
            case .ok, .invalidArgument, .failedPrecondition, .alreadyExists, .resourceExhausted: return true
            case .deadlineExceeded: return streaming
            case .notFound: return answer.reason.map(allowedNotFound.contains) ?? false
            default: return false
            }
        }
    }

    var failure: String {
        var line = "\(method) · \(caller.rawValue): expected \(expected), got \(answer) “\(answer.message)”"
        if expected == .hidden || expected == .deniedAsForNothing, let nothing = answerForNothing,
            nothing != answer
        {
            line += "; an id that names nothing gets \(nothing) “\(nothing.message)”"
        }
        return line
    }
}
