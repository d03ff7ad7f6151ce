import KindredHandlers
import KindredMessages

/// A page of one of the content lists (events, RSVPs, comments, registry items), continued by keyset: the
/// token (`Paging`) carries the list's name and the sort key of the last row served, so a page goes on right
/// after it whatever was added since, and a token of another list is refused.
struct ContentPage<Position: Sendable>: Sendable {
    let size: Int
    /// Serve rows after this one; nil for the first page.
    let after: Position?
    private let list: String

    /// The page `page` asks for; a bad size or token is recorded in `violations`. `decode` reads the
    /// `keyFields` fields of a token back into a position.
    init(
        _ page: Kindred_Common_V1_PageRequest?, list: String, keyFields: Int,
        _ violations: inout FieldViolations,
        decode: ([String]) -> Position?
    ) {
        self.list = list
        size = Paging.size(of: page, &violations)
        let token = page?.pageToken ?? ""
        let fields = Paging.fields(of: token, count: keyFields + 1)
        after = fields.flatMap { $0[0] == list ? decode(Array($0.dropFirst())) : nil }
        if !token.isEmpty, after == nil {
            violations.add("page.page_token", "is not a page token of this list")
        }
    }

    /// Up to `size` of `rows` (read with a limit of `size + 1`), and the token of the next page, empty when
    /// this one is the last; `key` gives a row's sort key as token fields.
    func served<Row>(_ rows: [Row], key: (Row) -> [String]) -> ([Row], Kindred_Common_V1_PageResponse) {
        guard rows.count > size else { return (rows, Kindred_Common_V1_PageResponse()) }
        let served = Array(rows.prefix(size))
        let token = Paging.token(([list] + key(served[served.count - 1])).joined(separator: "\n"))
        return (served, Kindred_Common_V1_PageResponse(nextPageToken: token))
    }
}
