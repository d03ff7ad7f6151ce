extension MatrixRows {
    /// gamification.proto: usage, challenges, coins, baby games, counters, rewards.
    static let gamification: [MatrixRow] = [
        row("GamificationService/UploadUsage", .account),
        row("GamificationService/GetUsageSettings", .account),
        row("GamificationService/SetUsageSettings", .account) { _ in ["settings.time_zone": "UTC"] },
        row("GamificationService/GetUsageSummary", .account) { _ in ["period": 1] },
        row("GamificationService/ListUsageSessions", .account),
        row("GamificationService/GetFriendLeaderboard", .account) { _ in ["app_id": "youtube", "period": 2] },
        row("GamificationService/ListPopularApps", .anyCaller),
        row("GamificationService/SetPopularApps", .adminOnly),
        row("GamificationService/CreateChallenge", .account) { _ in
            [
                "request_id": newRequestID, "name": "Less video", "app_id": "youtube",
                "daily_limit_minutes": 60,
                "duration_days": 7, "difficulty": 1,
            ]
        },
        // The owner's challenge, which the follower joined by invitation (the follower's cell names
        // themself: INVALID_ARGUMENT SELF_NOT_ALLOWED, past authorization).
        row("GamificationService/InviteToChallenge", .only([.owner, .follower], others: .hidden)) { cast in
            ["challenge_id": .text(cast.challenge), "user_id": .text(cast.followerID)]
        },
        row(
            "GamificationService/RespondToChallengeInvitation",
            .each([.owner: .allowed, .follower: .allowed])
        ) { cast in
            ["challenge_id": .text(cast.challenge), "accept": true]
        },
        row("GamificationService/ListChallenges", .account),
        row("GamificationService/ForfeitChallenge", .only([.owner, .follower], others: .hidden), last: true) {
            cast in ["challenge_id": .text(cast.challenge)]
        },
        row("GamificationService/GetActiveRestrictions", .account),
        row("GamificationService/CreatePopularChallenge", .adminOnly) { _ in
            [
                "request_id": newRequestID, "name": "Screen-free week", "app_id": "youtube",
                "daily_limit_minutes": 30, "duration_days": 7, "coin_award": 50,
            ]
        },
        row("GamificationService/ListPopularChallenges", .account),
        row("GamificationService/JoinPopularChallenge", .account) { cast in
            ["challenge_id": .text(cast.popularChallenge)]
        },
        row("GamificationService/GetChallengeLeaderboard", .only([.owner, .follower], others: .hidden)) {
            cast in
            ["challenge_id": .text(cast.challenge)]
        },
        row("GamificationService/WatchChallengeLeaderboard", .only([.owner, .follower], others: .hidden)) {
            cast in
            ["challenge_id": .text(cast.challenge)]
        },
        row("GamificationService/GetCoinBalance", .account),
        row("GamificationService/ListBadges", .account),
        row("GamificationService/GetGlobalRanking", .account),
        row("GamificationService/WatchMyAchievements", .account),
        row("GamificationService/WatchEvents", .serviceOnly),
        row("GamificationService/GetMyStanding", .account),
        row("GamificationService/CastBabyVote", .profileFollower) { cast in
            ["profile_id": .text(cast.profile), "gender": 1]
        },
        row("GamificationService/GetBabyVoteResults", .profileMember, onProfile),
        row("GamificationService/SuggestBabyName", .profileMember) { cast in
            ["profile_id": .text(cast.profile), "name": "Bo", "gender": 2]
        },
        row("GamificationService/ListBabyNameSuggestions", .profileMember, onProfile),
        row("GamificationService/LikeBabyNameSuggestion", .profileMember) { cast in
            ["profile_id": .text(cast.profile), "suggestion_id": .text(cast.suggestion)]
        },
        // An id not on the profile: the owner is past authorization with SUGGESTION_NOT_FOUND, and the cast's
        // suggestion stays for the rows after.
        row(
            "GamificationService/DeleteBabyNameSuggestion", .profileOwner, notFound: ["SUGGESTION_NOT_FOUND"]
        ) { cast in
            ["profile_id": .text(cast.profile), "suggestion_id": .text(newRequestIDText)]
        },
        row("GamificationService/EndBabyVote", .profileOwner, fresh: true, onProfile),
        row("GamificationService/ResetBabyVote", .profileOwner, fresh: true, onProfile),
        // The owner's counters: the owner, and the follower who shares the profile with them.
        row(
            "GamificationService/GetActivityCounters",
            .only([.owner, .follower], others: .deniedAsForNothing)
        ) { cast in
            ["user_id": .text(cast.ownerID)]
        },
        row("GamificationService/SetRewardSetup", .each([.guardian: .allowed])) { cast in
            onChild(cast).merging(["points_per_learning_minute": 1, "points_per_reward_minute": 1]) { $1 }
        },
        row("GamificationService/GetRewardSetup", .each([.guardian: .allowed]), onChild),
        row("GamificationService/UnlockRewardApp", .each([.guardian: .allowed])) { cast in
            onChild(cast).merging(["app_id": "youtube", "minutes": 10, "request_id": "matrix-unlock"]) { $1 }
        },
        row("GamificationService/LockRewardApp", .each([.guardian: .allowed])) { cast in
            onChild(cast).merging(["app_id": "youtube"]) { $1 }
        },
        row("GamificationService/GetChildDashboard", .each([.guardian: .allowed]), onChild),
    ]

    @Sendable static func onChild(_ cast: Cast) -> [String: FieldValue] {
        ["child_user_id": .text(cast.minorID)]
    }
}
