import KindredHandlers
import KindredMessages
import KindredRPC

/// Friend requests and friendships: a request waits until its recipient accepts or declines it or its sender
/// cancels it; a friendship is mutual and ends for both. Changes between two users run under their pair's
/// lock (`SocialContext.changingPair`), so two people asking each other at the same moment become friends.
struct Friendships: Sendable {
    let context: SocialContext

    /// `SendFriendRequest` from `me` to the user `ref` names: a new pending request, or, when they had asked
    /// `me` already, their request accepted. Refused across a block, to a friend (ALREADY_FRIENDS) and while
    /// `me`'s own request to them is pending (FRIEND_REQUEST_EXISTS).
    func send(to ref: RecipientRef, from me: UserID) async throws
        -> Kindred_Social_V1_SendFriendRequestResponse.OneOf_Outcome
    {
        // The sender is shown in the recipient's lists, so social must know them too.
        async let sender = context.people.person(me)
        let recipient = try await self.recipient(ref, of: me)
        let senderProto = try await sender.proto
        let now = context.clock.now
        return try await context.changingPair(me, recipient.id) { tx in
            let relationship = try await RelationshipStore.between(me, recipient.id, on: tx)
            try relationship.requireNoBlock()
            if relationship.friends { throw SocialError.alreadyFriends }
            if try await FriendshipStore.end(from: recipient.id, to: me, in: tx) {
                try await FriendshipStore.befriend(me, recipient.id, at: now, in: tx)
                return .friend(Kindred_Social_V1_Friend(person: recipient.proto, since: .init(now)))
            }
            let requestID = FriendRequestID.generate(at: now)
            let sent = try await FriendshipStore.request(
                requestID, from: me, to: recipient.id, at: now, in: tx)
            guard sent else { throw SocialError.friendRequestExists }
            return .request(
                Kindred_Social_V1_FriendRequest(
                    requestID: requestID.description, sender: senderProto, recipient: recipient.proto,
                    sentAt: .init(now))
            )
        }
    }

    /// `AcceptFriendRequest`: `me`, its recipient, accepts pending request `id`; FRIEND_REQUEST_NOT_FOUND
    /// for anyone else, as for a request that does not exist.
    func accept(_ id: FriendRequestID, as me: UserID) async throws -> Kindred_Social_V1_Friend {
        let now = context.clock.now
        let friendID = try await context.database.transaction { tx in
            guard let sender = try await FriendshipStore.sender(of: id, to: me, in: tx) else {
                throw SocialError.friendRequestNotFound
            }
            try await GraphStore.lockPair(me, sender, in: tx)
            // Ended under the lock: a cancel, a decline or a block may have ended it since it was read.
            guard try await FriendshipStore.end(id, by: me, as: .recipient, on: tx) != nil else {
                throw SocialError.friendRequestNotFound
            }
            try await RelationshipStore.between(me, sender, on: tx).requireNoBlock()
            try await FriendshipStore.befriend(me, sender, at: now, in: tx)
            return sender
        }
        let friend = try await context.people.person(friendID)
        return Kindred_Social_V1_Friend(person: friend.proto, since: .init(now))
    }

    /// The user `ref` names, as a request's recipient: not `me`, known to identity.
    private func recipient(_ ref: RecipientRef, of me: UserID) async throws -> Person {
        switch ref {
        case .userID(let userID):
            return try await context.counterpart(userID, of: me)
        case .username(let username):
            let person = try await context.people.person(username: username)
            guard person.id != me else { throw SocialError.notYourself }
            return person
        }
    }
}
