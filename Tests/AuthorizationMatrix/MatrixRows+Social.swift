extension MatrixRows {
    /// social.proto: friends, follows, blocks, messages, events, reports.
    static let social: [MatrixRow] = [
        row("SocialService/SendFriendRequest", .account) { cast in ["to.user_id": .text(cast.bystanderID)] },
        // Makes the stranger the owner's friend, who may then see the owner's private event: after the rest.
        row("SocialService/AcceptFriendRequest", .only([.owner], others: .hidden), last: true) { cast in
            ["request_id": .text(cast.acceptRequest)]
        },
        row("SocialService/DeclineFriendRequest", .only([.owner], others: .hidden)) { cast in
            ["request_id": .text(cast.declineRequest)]
        },
        row("SocialService/CancelFriendRequest", .only([.owner], others: .hidden)) { cast in
            ["request_id": .text(cast.cancelRequest)]
        },
        row("SocialService/RemoveFriend", .account, notFound: ["NOT_FRIENDS"]) { cast in
            ["user_id": .text(cast.bystanderID)]
        },
        row("SocialService/ListFriends", .account),
        row("SocialService/ListFriendRequests", .account),
        row("SocialService/AreFriends", .only([.owner, .follower, .service], others: .deniedAsForNothing)) {
            cast in
            ["user_id": .text(cast.ownerID), "other_user_id": .text(cast.followerID)]
        },
        row("SocialService/Follow", .account) { cast in ["user_id": .text(cast.bystanderID)] },
        row("SocialService/Unfollow", .account) { cast in ["user_id": .text(cast.bystanderID)] },
        row("SocialService/ListFollowers", .only([.owner], others: .deniedAsForNothing)) { cast in
            ["user_id": .text(cast.ownerID)]
        },
        row("SocialService/ListFollowing", .only([.owner], others: .deniedAsForNothing)) { cast in
            ["user_id": .text(cast.ownerID)]
        },
        row("SocialService/IsFollowing", .only([.follower, .service], others: .deniedAsForNothing)) { cast in
            ["follower_user_id": .text(cast.followerID), "user_ids": .texts([cast.ownerID])]
        },
        row("SocialService/BlockUser", .account) { cast in ["user_id": .text(cast.bystanderID)] },
        row("SocialService/UnblockUser", .account) { cast in ["user_id": .text(cast.bystanderID)] },
        row("SocialService/ListBlockedUsers", .account),
        row("SocialService/SearchUsers", .account) { cast in ["username_prefix": .text(cast.ownerUsername)] },
        row("SocialService/SendMessage", .account) { cast in
            ["request_id": newRequestID, "recipient_user_id": .text(cast.followerID), "text": "Hello"]
        },
        row("SocialService/ListConversations", .account),
        row("SocialService/ListMessages", .conversationMember) { cast in
            ["conversation_id": .text(cast.conversation)]
        },
        row("SocialService/WatchMessages", .account),
        row("SocialService/CreateEvent", .account) { _ in
            [
                "request_id": newRequestID, "title": "Picnic", "starts_at.seconds": inAMonth,
                "place": "The park", "visibility": 2,
            ]
        },
        // The owner's private event: the owner's friends (the follower) see it; nobody was invited.
        row("SocialService/GetEvent", .only([.owner, .follower], others: .hidden)) { cast in
            ["event_id": .text(cast.socialEvent)]
        },
        row("SocialService/JoinEvent", .only([.owner, .follower], others: .hidden)) { cast in
            ["event_id": .text(cast.socialEvent)]
        },
        row("SocialService/LeaveEvent", .only([.owner, .follower], others: .hidden)) { cast in
            ["event_id": .text(cast.socialEvent)]
        },
        row("SocialService/InviteToEvent", .each([.owner: .allowed, .follower: .denied])) { cast in
            ["event_id": .text(cast.socialEvent), "user_ids": .texts([cast.bystanderID])]
        },
        row("SocialService/ListFeed", .account),
        row("SocialService/RequestMediaView", .account, notFound: ["MEDIA_NOT_FOUND"]) { _ in
            ["media_id": newRequestID]
        },
        row("SocialService/ReportContent", .account) { cast in
            ["content_kind": 1, "content_id": .text(cast.bystanderID), "reason": "Spam"]
        },
        row("SocialService/WatchEvents", .serviceOnly),
    ]
}
