import KindredRuntime
import FoundationEssentials
import KindredMessages
import KindredRPC

/// Where a `SearchUsers` page starts and how long it is. The page token is opaque to clients: base64url of
/// the prefix it was made for and the last username served, so a page continues right after the previous
/// one even as accounts come and go, and a token cannot be replayed against another prefix.
struct SearchPage: Sendable, Equatable {
    static let defaultSize = 50
    static let maximumSize = 500

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
        let page = request.page ?? Kindred_Common_V1_PageRequest()
        if page.pageSize < 0 { violations.add("page.page_size", "must not be negative") }
        self.prefix = prefix.lowercased()
        self.size = page.pageSize == 0 ? Self.defaultSize : min(Int(page.pageSize), Self.maximumSize)
        let after = page.pageToken.isEmpty ? "" : Self.decode(page.pageToken, prefix: self.prefix)
        if after == nil { violations.add("page.page_token", "is not a page token of this search") }
        self.after = after ?? ""
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending with `lastUsername`.
    func nextToken(after lastUsername: String) -> String {
        let text = "1\n\(prefix)\n\(lastUsername.lowercased())"
        return Data(text.utf8).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// The first string after every string that starts with `prefix` in byte order: the search's upper bound.
    /// Prefixes are ASCII letters, digits and _, so the last byte can always be raised.
    var upperBound: String {
        var bytes = Array(prefix.utf8)
        bytes[bytes.count - 1] += 1
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func decode(_ token: String, prefix: String) -> String? {
        var base64 = token.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "1", parts[1] == prefix, parts[2].hasPrefix(prefix) else {
            return nil
        }
        return String(parts[2])
    }
}
