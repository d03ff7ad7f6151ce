import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// Which page of one of the graph's lists to serve. Each list is one index range of its owner's, newest first
/// with the other user's id breaking ties (`since DESC, id`). The page token (`Paging`) carries the list, its
/// owner and the position of the last entry served, so the next page starts right after it whatever was added
/// since, costs the same at the 5,000th entry as at the first, and cannot be replayed against another list.
struct GraphPage: Sendable, Equatable {
    /// The lists that page this way, each named in its tokens.
    enum List: String, Sendable {
        case friends, followers, following, incomingRequests, outgoingRequests, blockedUsers
    }

    /// Where an entry stands in its list: when it was made, in microseconds since 1970 (exactly what
    /// PostgreSQL keeps, so no rounding moves a page's edge), and the other user's id.
    struct Position: Sendable, Equatable {
        let since: Int64
        let userID: UserID
    }

    let list: List
    let owner: UserID
    /// Serve the entries after this one; nil for the first page.
    let after: Position?
    let size: Int

    /// The page of `owner`'s `list` that `request` asks for; a bad size or token is recorded in `violations`.
    init(
        _ list: List, of owner: UserID, _ request: Kindred_Common_V1_PageRequest?,
        _ violations: inout FieldViolations
    ) {
        self.list = list
        self.owner = owner
        size = Paging.size(of: request, &violations)
        let token = request?.pageToken ?? ""
        after = token.isEmpty ? nil : Self.decode(token, list: list, owner: owner)
        if !token.isEmpty, after == nil {
            violations.add("page.page_token", "is not a page token of this list")
        }
    }

    /// The page's entries out of the up to `size + 1` read, and the token of the next page (empty on the last).
    func serve(_ read: [GraphEntry]) -> (entries: [GraphEntry], nextPageToken: String) {
        guard read.count > size else { return (read, "") }
        let entries = Array(read.prefix(size))
        let last = entries[entries.count - 1].position
        return (
            entries,
            Paging.token(list.rawValue, owner.description, String(last.since), last.userID.description)
        )
    }

    private static func decode(_ token: String, list: List, owner: UserID) -> Position? {
        guard let fields = Paging.fields(of: token, count: 4), fields[0] == list.rawValue,
            fields[1] == owner.description,
            let since = Int64(fields[2]), let userID = UserID(fields[3])
        else { return nil }
        return Position(since: since, userID: userID)
    }
}

/// One entry of a graph list: the other user, where the entry stands, and a friend request's id.
struct GraphEntry: Sendable, Equatable {
    let person: Kindred_Social_V1_Person
    let position: GraphPage.Position
    /// Set in the friend request lists only.
    let requestID: FriendRequestID?

    /// When the entry was made, as the API shows it.
    var since: Date {
        // Microseconds over 1e6: the same Date a read of the row's timestamptz gives.
        Date(timeIntervalSince1970: Double(position.since) / 1_000_000)
    }
}
