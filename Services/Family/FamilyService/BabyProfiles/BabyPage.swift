import KindredHandlers
import KindredMessages
import KindredRPC

/// Which page of a baby-profile list to serve: the size, and the fields of the last row served (the list's
/// keyset), carried in an opaque `Paging` token that names the list it was made for (and the profile, for a
/// list of one profile), so a token of another list or profile is refused.
struct BabyPage: Sendable {
    let size: Int
    /// The last row's keyset fields; nil for the first page.
    let after: [String]?
    private let list: String

    /// The page `request` asks for in `list`, whose rows are keyed by `fields` fields; INVALID_ARGUMENT naming
    /// `page.page_size` or `page.page_token`.
    init(_ request: Kindred_Common_V1_PageRequest?, list: String, fields: Int) throws(RPCError) {
        var violations = FieldViolations()
        size = Paging.size(of: request, &violations)
        self.list = list
        let token = request?.pageToken ?? ""
        if token.isEmpty {
            after = nil
        } else if let decoded = Paging.fields(of: token, count: fields + 1), decoded[0] == list {
            after = Array(decoded.dropFirst())
        } else {
            after = nil
            violations.add("page.page_token", "is not a page token of this list")
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the row keyed by `fields`.
    func token(_ fields: String...) -> String {
        // One line per field either way: Paging joins its fields with newlines, as this does.
        Paging.token(([list] + fields).joined(separator: "\n"))
    }

    /// A token of the right shape whose fields do not parse: made by nobody but a forger.
    static var foreignToken: RPCError {
        FieldViolations.single("page.page_token", "is not a page token of this list")
    }
}
