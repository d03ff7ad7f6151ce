public import KindredRPC

extension FieldViolations {
    /// The id in `text`, parsed once at the edge; nil after recording `field` when `text` is empty ("User id
    /// is required.") or not a UUID ("User id is not a valid id.").
    public mutating func id<Kind>(_ field: String, _ text: String) -> ID<Kind>? {
        if let id = ID<Kind>(text) { return id }
        add(field, text.isEmpty ? "is required" : "is not a valid id")
        return nil
    }

    /// The ids in `texts`, in order, each refused on its own (`user_ids[2]`); nil when any is refused.
    public mutating func ids<Kind>(_ field: String, _ texts: [String]) -> [ID<Kind>]? {
        let ids: [ID<Kind>?] = texts.enumerated().map { index, text in id("\(field)[\(index)]", text) }
        return ids.contains(nil) ? nil : ids.compactMap { $0 }
    }

    /// Throws `error`, if there is one; otherwise `values`, each given by a check that records a violation
    /// whenever it gives nil (`id`, `ids`), so none is nil.
    public func throwIfAny<each Value>(_ values: repeat (each Value)?) throws(RPCError) -> (repeat each Value)
    {
        try throwIfAny()
        return (repeat (each values)!)
    }

    /// The id in `text`, or INVALID_ARGUMENT naming `field`.
    public static func id<Kind>(_ field: String, _ text: String) throws(RPCError) -> ID<Kind> {
        var violations = FieldViolations()
        guard let id: ID<Kind> = violations.id(field, text) else { throw violations.error! }
        return id
    }

    /// The two ids a request names together (a profile's and one of its photos', say), each a (field, text),
    /// or INVALID_ARGUMENT naming each bad one.
    public static func ids<First, Second>(
        _ first: (field: String, text: String), _ second: (field: String, text: String)
    ) throws(RPCError) -> (ID<First>, ID<Second>) {
        var violations = FieldViolations()
        let firstID: ID<First>? = violations.id(first.field, first.text)
        let secondID: ID<Second>? = violations.id(second.field, second.text)
        return try violations.throwIfAny(firstID, secondID)
    }
}
