import KindredAuth
import KindredMessages
import KindredRPC

/// `SearchUsers`: friend search by username prefix, public fields only.
extension Accounts {
    /// Verified accounts whose username starts with the prefix (ignoring case), in username order, a page at a
    /// time. Minors appear only when the prefix is their exact username, so nobody can list children by
    /// typing "a"; accounts never verified are left out, as nobody can sign in to them yet.
    func searchUsers(_ request: Kindred_Identity_V1_SearchUsersRequest)
        async throws -> (users: [AccountStore.PublicAccount], nextPageToken: String)
    {
        let page = try SearchPage(request)
        var users = try await AccountStore.search(page, on: database)
        guard users.count > page.size else { return (users, "") }
        users.removeLast(users.count - page.size)
        return (users, page.nextToken(after: users[users.count - 1].username))
    }
}
