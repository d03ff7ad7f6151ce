import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A page of one of the lists ordered newest first by a time and then by challenge id (the caller's
/// challenges, the popular ones, badges). The page token (`Paging`) carries the list's name and both keys of
/// the last entry served, so the next page continues right after it, and is refused for another list.
struct ChallengePage: Sendable, Equatable {
    /// Where a page ends: its last entry's time and challenge id.
    struct Position: Sendable, Equatable {
        let at: Date
        let id: ChallengeID
    }

    /// The list this page is of (a challenge list's state, "popular", "badges").
    let list: String
    /// Serve entries after this one; nil for the first page.
    let after: Position?
    let size: Int

    /// The page of `list` that `page` asks for, or INVALID_ARGUMENT naming every bad field (`violations`
    /// holds the request's others).
    init(
        of list: String, _ page: Kindred_Common_V1_PageRequest?, field: String = "page",
        _ violations: inout FieldViolations
    ) {
        self.list = list
        size = Paging.size(of: page, &violations)
        let token = page?.pageToken ?? ""
        after = token.isEmpty ? nil : Self.decode(token, list: list)
        if !token.isEmpty, after == nil {
            violations.add("\(field).page_token", "is not a page token of this list")
        }
    }

    /// The page of `list` that `page` asks for, or INVALID_ARGUMENT.
    init(of list: String, _ page: Kindred_Common_V1_PageRequest?) throws(RPCError) {
        var violations = FieldViolations()
        self.init(of: list, page, &violations)
        try violations.throwIfAny()
    }

    /// The response's page: the token of the page after `served` when more than `size` were read (then the
    /// extra one is dropped), and the entries to send.
    func cut<Entry>(_ read: [Entry], position: (Entry) -> Position) -> (
        [Entry], Kindred_Common_V1_PageResponse
    ) {
        guard read.count > size else { return (read, Kindred_Common_V1_PageResponse()) }
        let served = Array(read.prefix(size))
        let last = position(served[served.count - 1])
        let token = Paging.token(list, Paging.field(last.at), last.id.description)
        return (served, Kindred_Common_V1_PageResponse(nextPageToken: token))
    }

    private static func decode(_ token: String, list: String) -> Position? {
        guard let fields = Paging.fields(of: token, count: 3), fields[0] == list,
            let at = Paging.instant(fields[1]), let id = ChallengeID(fields[2])
        else { return nil }
        return Position(at: at, id: id)
    }
}
