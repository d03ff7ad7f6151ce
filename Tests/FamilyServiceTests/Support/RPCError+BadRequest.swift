import KindredRPC

extension RPCError {
    /// The fields `BadRequest` names, in order.
    var badFields: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.field) } else { [] }
        }
    }
}
