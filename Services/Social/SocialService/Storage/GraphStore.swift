import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL every part of the graph shares: the lock that orders changes between two users, and the list pages.
enum GraphStore {
    /// Takes the lock of the pair {a, b}, in either order, until `tx` ends. Every change that adds an edge
    /// between two users (a request, a friendship, a follow, a block) takes it first, so changes to one pair
    /// run one after the other and each sees what the one before it committed (under READ COMMITTED, every
    /// statement after the lock reads afresh): two crossing requests become a friendship, and nothing is
    /// added beside a block committed a moment before.
    static func lockPair(_ a: UserID, _ b: UserID, in tx: PostgresTransaction) async throws {
        let (low, high) = a < b ? (a, b) : (b, a)
        try await tx.query(
            "SELECT pg_advisory_xact_lock(hashtextextended(\("social.pair:\(low):\(high)"), 0))")
    }

    /// Up to `page.size + 1` entries of `page`, so that `GraphPage.serve` can tell whether another page follows.
    static func entries(_ page: GraphPage, on db: some StatementRunner) async throws -> [GraphEntry] {
        try await db.pureRead(query(page)).map { row in
            let (id, username, since, requestID) = try row.decode(
                (UserID, String, Int64, FriendRequestID?).self)
            return GraphEntry(
                person: Kindred_Social_V1_Person(userID: id.description, username: username),
                position: GraphPage.Position(since: since, userID: id), requestID: requestID)
        }
    }

    /// The statement reading `page`. A later page starts inside the owner's index range with `since <=` (the
    /// index condition) and drops the ties already served, so no page reads or sorts the entries before it.
    static func query(_ page: GraphPage) -> PostgresQuery {
        let list = ListColumns(page.list)
        guard let after = page.after else {
            return """
                \(list.select) WHERE e.\(list.owner) = \(page.owner)::uuid
                ORDER BY e.\(list.since) DESC, e.\(list.other) LIMIT \(page.size + 1)
                """
        }
        return """
            \(list.select) WHERE e.\(list.owner) = \(page.owner)::uuid
              AND e.\(list.since) <= 'epoch'::timestamptz + \(after.since) * interval '1 microsecond'
              AND (e.\(list.since) < 'epoch'::timestamptz + \(after.since) * interval '1 microsecond'
                   OR e.\(list.other) > \(after.userID)::uuid)
            ORDER BY e.\(list.since) DESC, e.\(list.other) LIMIT \(page.size + 1)
            """
    }
}

/// A list's table and columns: constants of this file, written into the statements as SQL text.
private struct ListColumns {
    let owner: SQLConstant
    let other: SQLConstant
    let since: SQLConstant
    let select: SQLConstant

    init(_ list: GraphPage.List) {
        let (table, owner, other, since) =
            switch list {
            case .friends: ("friendships", "user_id", "friend_id", "since")
            case .followers: ("follows", "followee_id", "follower_id", "since")
            case .following: ("follows", "follower_id", "followee_id", "since")
            case .incomingRequests: ("friend_requests", "recipient_id", "sender_id", "sent_at")
            case .outgoingRequests: ("friend_requests", "sender_id", "recipient_id", "sent_at")
            case .blockedUsers: ("blocks", "blocker_id", "blocked_id", "since")
            }
        let requestID = table == "friend_requests" ? "e.request_id::text" : "NULL::text"
        self.owner = SQLConstant(owner)
        self.other = SQLConstant(other)
        self.since = SQLConstant(since)
        // The username comes from the people social has met; LEFT JOIN, so that an entry is never lost.
        select = SQLConstant(
            """
            SELECT e.\(other)::text, coalesce(p.username, ''), (extract(epoch FROM e.\(since)) * 1000000)::int8, \
            \(requestID) FROM social.\(table) e LEFT JOIN social.people p ON p.user_id = e.\(other)
            """)
    }
}

/// SQL text made from this file's constants, never from a request's values.
private struct SQLConstant {
    let text: String
    init(_ text: String) { self.text = text }
}

extension PostgresQuery.StringInterpolation {
    fileprivate mutating func appendInterpolation(_ constant: SQLConstant) {
        appendLiteral(constant.text)
    }
}
