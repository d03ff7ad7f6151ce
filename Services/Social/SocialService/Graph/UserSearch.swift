import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `SearchUsers`: identity's username search, asked with the caller's own token (identity decides whom the
/// caller may find: minors only by their exact username), less whoever social keeps from the caller.
struct UserSearch: Sendable {
    /// One of identity's matches.
    typealias Match = (id: UserID, username: String)

    let context: SocialContext

    /// Identity's page of matches for `request.username_prefix`, less anyone who blocked `me` or whom `me`
    /// blocked and anyone whose user was reported by `ReportTally.filterThreshold` people. A page may therefore
    /// be shorter than asked, even empty, while its `next_page_token` (identity's, passed through) still leads
    /// on. The people shown are remembered, so a request or follow by id that follows asks identity nothing.
    func search(
        _ request: Kindred_Social_V1_SearchUsersRequest, as me: UserID, forwarding requestMetadata: Metadata
    ) async throws -> Kindred_Social_V1_SearchUsersResponse {
        try Self.check(request)
        let found = try await matches(request, forwarding: requestMetadata)
        // Identity's ids, parsed once; it issues nothing else.
        let users = found.users.compactMap { user in
            UserID(user.userID).map { Match(id: $0, username: user.username) }
        }
        let screening = try await UserSearchStore.screen(users.map(\.id), for: me, on: context.database)
        let shown = users.filter { screening[$0.id]?.visible == true }
        try await remember(
            shown.filter { screening[$0.id]?.known == false }, searchedFor: request.usernamePrefix)
        return Kindred_Social_V1_SearchUsersResponse(
            users: shown.map { Kindred_Social_V1_Person(userID: $0.id.description, username: $0.username) },
            page: found.page)
    }

    /// What identity would refuse, refused here first and named as the caller's own fields: a peer's
    /// INVALID_ARGUMENT means social asked wrongly, and `PeerCall` answers it with INTERNAL.
    private static func check(_ request: Kindred_Social_V1_SearchUsersRequest) throws(RPCError) {
        var violations = FieldViolations()
        let prefix = request.usernamePrefix
        // Lengthened with `_` to the shortest username, a prefix is well-formed exactly when it is a username.
        let padded = prefix + String(repeating: "_", count: max(0, 3 - prefix.utf8.count))
        if prefix.isEmpty || !Person.isWellFormed(username: padded) {
            violations.add("username_prefix", "must be 1 to 30 letters, digits or _")
        }
        _ = Paging.size(of: request.page, &violations)
        try violations.throwIfAny()
    }

    /// Identity's answer, with the caller's token. The page token is identity's own, so only identity can
    /// refuse it: its INVALID_ARGUMENT (everything else was checked) is carried past `PeerCall` as a value and
    /// answered as the caller's `page.page_token`.
    private func matches(
        _ request: Kindred_Social_V1_SearchUsersRequest, forwarding requestMetadata: Metadata
    ) async throws -> Kindred_Identity_V1_SearchUsersResponse {
        var options = CallOptions(timeout: .seconds(5))
        options.forwardAuthorization(from: requestMetadata)
        let asked = Kindred_Identity_V1_SearchUsersRequest(
            usernamePrefix: request.usernamePrefix, page: request.page)
        let answer: Result<Kindred_Identity_V1_SearchUsersResponse, RPCError> = try await PeerCall.run(
            "identity", passingRefusals: true
        ) {
            do {
                return .success(try await context.people.identity.searchUsers(asked, options: options))
            } catch let error as RPCError where error.code == .invalidArgument {
                return .failure(
                    FieldViolations.single("page.page_token", "is not a page token of this search"))
            }
        }
        return try answer.get()
    }

    /// Remembers people social meets here for the first time. Identity finds minors by their exact username
    /// only, so everyone else found is an adult; the one whose username is the prefix may be either, and is
    /// learned from identity's account of them, as the directory learns anyone.
    private func remember(_ users: [Match], searchedFor prefix: String) async throws {
        let isExact = { (user: Match) in user.username.lowercased() == prefix.lowercased() }
        for user in users where isExact(user) { _ = try await context.people.person(user.id) }
        let adults = users.filter { !isExact($0) }.map {
            Person(id: $0.id, username: $0.username, minor: false)
        }
        guard !adults.isEmpty else { return }
        try await UserSearchStore.remember(adults, at: context.clock.now, on: context.database)
    }
}
