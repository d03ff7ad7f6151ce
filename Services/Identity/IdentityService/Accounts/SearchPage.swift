import KindredHandlers
import KindredMessages
import KindredRPC

/// Where a `SearchUsers` page starts and how long it is. The page token (`Paging`) carries the prefix it was
/// made for and the last username served, so a page continues right after the previous one even as accounts
/// come and go, and a token cannot be replayed against another prefix.
struct SearchPage: Sendable, Equatable {
    /// The lowercased prefix.
    let prefix: String
    /// Serve usernames (lowercased) after this one; empty for the first page.
    let after: String
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Identity_V1_SearchUsersRequest) throws(RPCError) {
        var violations = FieldViolations()
        let prefix = request.usernamePrefix
        if prefix.isEmpty || prefix.utf8.count > 30
            || !prefix.utf8.allSatisfy(AccountFieldRules.isUsernameByte)
        {
            violations.add("username_prefix", "must be 1 to 30 letters, digits or _")
        }
        self.prefix = prefix.lowercased()
        self.size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        let after = token.isEmpty ? "" : Self.decode(token, prefix: self.prefix)
        if after == nil { violations.add("page.page_token", "is not a page token of this search") }
        self.after = after ?? ""
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending with `lastUsername`.
    func nextToken(after lastUsername: String) -> String {
        Paging.token(prefix, lastUsername.lowercased())
    }

    /// The first string after every string that starts with `prefix` in byte order: the search's upper bound.
    /// Prefixes are ASCII letters, digits and _, so the last byte can always be raised.
    var upperBound: String {
        var bytes = Array(prefix.utf8)
        bytes[bytes.count - 1] += 1
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func decode(_ token: String, prefix: String) -> String? {
        guard let fields = Paging.fields(of: token, count: 2), fields[0] == prefix,
            fields[1].hasPrefix(prefix)
        else { return nil }
        return fields[1]
    }
}
