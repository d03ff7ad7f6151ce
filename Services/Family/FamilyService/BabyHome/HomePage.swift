import KindredHandlers
import KindredMessages
import KindredRPC

/// What a `GetHome` request asks for: the profile (all the caller's when nil) and the page. The page token
/// is opaque: the profile filter it was made for and the last activity served, so the next page continues
/// right before it (newest first) and a token cannot be replayed with another filter.
struct HomePage: Sendable, Equatable {
    let profile: BabyProfileID?
    /// Serve activity before this entry; nil for the first page (which also carries the countdowns).
    let before: BabyActivityID?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_GetHomeRequest) throws(RPCError) {
        var violations = FieldViolations()
        profile = request.profileID.isEmpty ? nil : violations.id("profile_id", request.profileID)
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        if token.isEmpty {
            before = nil
        } else if let fields = Paging.fields(of: token, count: 2),
            fields[0] == Self.filter(request.profileID),
            let last = BabyActivityID(fields[1])
        {
            before = last
        } else {
            before = nil
            violations.add("page.page_token", "is not a page token of this listing")
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending with entry `last`.
    func nextToken(after last: String) -> String {
        Paging.token(Self.filter(profile?.description ?? ""), last)
    }

    private static func filter(_ profileID: String) -> String {
        profileID.isEmpty ? "all" : profileID.lowercased()
    }
}
