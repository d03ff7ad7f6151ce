import FoundationEssentials
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

    /// The page `request` asks for in `list`, whose rows are keyed by `fields` fields; INVALID_ARGUMENT
    /// naming `page.page_size` or `page.page_token`.
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

    /// Serves `fetched` (asked with a limit of `size + 1`): the first `size` rows, and the token of the page
    /// after the last one when there is more, made by `next` from that row.
    func cut<Row>(_ fetched: [Row], next: (Row) -> String) -> (
        rows: [Row], page: Kindred_Common_V1_PageResponse
    ) {
        guard fetched.count > size else { return (fetched, Kindred_Common_V1_PageResponse()) }
        let rows = Array(fetched.prefix(size))
        return (rows, Kindred_Common_V1_PageResponse(nextPageToken: next(rows[rows.count - 1])))
    }

    /// Where a list ordered by role, joining time and an id (a member's profiles, a profile's members)
    /// continues; nil for the first page. Its token has three fields, written by `token(after:)`.
    func memberPosition<Kind>() throws(RPCError) -> BabyMemberPosition<Kind>? {
        guard let fields = after else { return nil }
        guard let role = Int(fields[0]).flatMap(BabyRole.init(rawValue:)),
            let joinedAt = Paging.instant(fields[1]), let id = ID<Kind>(fields[2])
        else { throw Self.foreignToken }
        return BabyMemberPosition(role: role, joinedAt: joinedAt, id: id)
    }

    /// The token of the page after the row at `position`.
    func token<Kind>(after position: BabyMemberPosition<Kind>) -> String {
        token(String(position.role.rawValue), Paging.field(position.joinedAt), position.id.description)
    }

    /// A token of the right shape whose fields do not parse: made by nobody but a forger.
    static var foreignToken: RPCError {
        FieldViolations.single("page.page_token", "is not a page token of this list")
    }
}

/// A row's place in a list ordered by the member's role (owners first), when they joined, then `id` (the
/// profile's, in a member's list of profiles; the member's, in a profile's list of members).
struct BabyMemberPosition<Kind>: Sendable, Equatable {
    let role: BabyRole
    let joinedAt: Date
    let id: ID<Kind>
}
