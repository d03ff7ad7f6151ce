import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `ListFriends`, `ListFriendRequests` and `AreFriends`.
extension Friendships {
    /// `me`'s friends, most recent first, a page at a time.
    func friends(_ request: Kindred_Common_V1_PageRequest?, of me: UserID) async throws
        -> Kindred_Social_V1_ListFriendsResponse
    {
        var violations = FieldViolations()
        let page = GraphPage(.friends, of: me, request, &violations)
        try violations.throwIfAny()
        let served = page.serve(try await GraphStore.entries(page, on: context.database))
        return Kindred_Social_V1_ListFriendsResponse(
            friends: served.entries.map { Kindred_Social_V1_Friend(person: $0.person, since: $0.since) },
            page: Kindred_Common_V1_PageResponse(nextPageToken: served.nextPageToken))
    }

    /// `me`'s pending requests in `request.direction` (required), most recent first, a page at a time.
    func requests(_ request: Kindred_Social_V1_ListFriendRequestsRequest, of me: UserID) async throws
        -> Kindred_Social_V1_ListFriendRequestsResponse
    {
        var violations = FieldViolations()
        let list: GraphPage.List? =
            switch request.direction {
            case .incoming: .incomingRequests
            case .outgoing: .outgoingRequests
            case .unspecified, .unrecognized: nil
            }
        if list == nil { violations.add("direction", "must be INCOMING or OUTGOING") }
        let page = GraphPage(list ?? .incomingRequests, of: me, request.page, &violations)
        try violations.throwIfAny()
        let served = page.serve(try await GraphStore.entries(page, on: context.database))
        // Everyone listed asked or was asked by `me`, so `me` is known: no call to identity here.
        let owner =
            served.entries.isEmpty ? Kindred_Social_V1_Person() : try await context.people.person(me).proto
        return Kindred_Social_V1_ListFriendRequestsResponse(
            requests: served.entries.map { entry in
                let incoming = list == .incomingRequests
                return Kindred_Social_V1_FriendRequest(
                    requestID: entry.requestID?.description ?? "", sender: incoming ? entry.person : owner,
                    recipient: incoming ? owner : entry.person, sentAt: entry.since)
            },
            page: Kindred_Common_V1_PageResponse(nextPageToken: served.nextPageToken))
    }

    /// `AreFriends`, for a service or for one of the two users: one statement, no call to identity. A user is
    /// refused across a block as in any other interaction.
    func areFriends(_ pair: FriendPairDraft, as caller: Caller) async throws -> Bool {
        let (user, other) = (pair.user, pair.other)
        if caller.role == .service {
            return try await RelationshipStore.between(user, other, on: context.database).friends
        }
        guard let me = caller.accountUserID, me == user || me == other else {
            throw SocialError.notYourRelationship
        }
        let relationship = try await RelationshipStore.between(
            me, me == user ? other : user, on: context.database)
        try relationship.requireNoBlock()
        return relationship.friends
    }
}
