import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// Which `ListUsageSessions` page to serve: the caller's sessions starting in [from, until), oldest first.
/// The page token (`Paging`) carries the range it was made for and the last session served (its start and
/// id, the order's key), and is refused for another range.
struct UsageSessionPage: Sendable, Equatable {
    struct Position: Sendable, Equatable {
        let start: Date
        let clientSessionID: String
    }

    let from: Date?
    let until: Date?
    /// Serve sessions after this one; nil for the first page.
    let after: Position?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Gamification_V1_ListUsageSessionsRequest) throws(RPCError) {
        var violations = FieldViolations()
        from = request.startTime
        until = request.endTime
        if let from, let until, until < from { violations.add("end_time", "must not be before start_time") }
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        after = token.isEmpty ? nil : Self.decode(token, range: Self.range(from, until))
        if !token.isEmpty, after == nil {
            violations.add("page.page_token", "is not a page token of this time range")
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending with `last`.
    func nextToken(after last: UsageBatch.Session) -> String {
        let (from, until) = Self.range(self.from, self.until)
        return Paging.token(from, until, Paging.field(last.start), last.clientSessionID)
    }

    private static func range(_ from: Date?, _ until: Date?) -> (String, String) {
        (from.map(Paging.field) ?? "", until.map(Paging.field) ?? "")
    }

    private static func decode(_ token: String, range: (String, String)) -> Position? {
        guard let fields = Paging.fields(of: token, count: 4), (fields[0], fields[1]) == range,
            let start = Paging.instant(fields[2])
        else { return nil }
        return Position(start: start, clientSessionID: fields[3])
    }
}
