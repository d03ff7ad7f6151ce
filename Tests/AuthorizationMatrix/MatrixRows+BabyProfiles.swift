extension MatrixRows {
    /// baby_profiles.proto and baby_activity.proto: a stranger to the profile is told it does not exist.
    static let babyProfiles: [MatrixRow] = [
        row("FamilyService/CreateBabyProfile", .account) { _ in ["request_id": newRequestID, "name": "Bean"]
        },
        row("FamilyService/GetBabyProfile", .profileMember, onProfile),
        row("FamilyService/UpdateBabyProfile", .profileOwner) { cast in
            [
                "profile.profile_id": .text(cast.profile), "update_mask.paths": .texts(["name"]),
                "profile.name": "Pea",
            ]
        },
        row("FamilyService/DeleteBabyProfile", .profileOwner, fresh: true, onProfile),
        row("FamilyService/ListMyBabyProfiles", .account),
        row("FamilyService/InviteToBabyProfile", .profileOwner) { cast in
            [
                "request_id": newRequestID, "profile_id": .text(cast.profile), "email": "aunt@example.com",
                "role": 2,
            ]
        },
        row("FamilyService/ListBabyProfileInvitations", .profileOwner, onProfile),
        row(
            "FamilyService/ResendBabyProfileInvitation", .profileOwner,
            notFound: ["BABY_INVITATION_NOT_FOUND"]
        ) { cast in
            ["profile_id": .text(cast.profile), "invitation_id": newRequestID]
        },
        row(
            "FamilyService/RevokeBabyProfileInvitation", .profileOwner,
            notFound: ["BABY_INVITATION_NOT_FOUND"]
        ) { cast in
            ["profile_id": .text(cast.profile), "invitation_id": newRequestID]
        },
        row("FamilyService/AcceptBabyProfileInvitation", .account, notFound: ["LINK_UNKNOWN"]) { _ in
            ["token": "no-such-link"]
        },
        row("FamilyService/ListBabyProfileMembers", .profileMember, onProfile),
        row("FamilyService/LeaveBabyProfile", .profileMember, fresh: true, onProfile),
        row("FamilyService/RemoveBabyProfileMember", .profileOwner, fresh: true) { cast in
            ["profile_id": .text(cast.profile), "user_id": .text(cast.followerID)]
        },
        row("FamilyService/GetHome", .profileMember, usersOnly: true, onProfile),
        row("FamilyService/ListSuggestions", .profileOwner, usersOnly: true, onProfile),
        row("FamilyService/WatchProfileActivity", .profileMember, usersOnly: true) { cast in
            ["profile_ids": .texts([cast.profile])]
        },
        // Until AnnounceArrival's row announces it, a member's reads of the arrival are ARRIVAL_NOT_FOUND.
        row("FamilyService/AnnounceArrival", .profileOwner, arrival),
        row("FamilyService/UpdateArrival", .profileOwner, notFound: ["ARRIVAL_NOT_FOUND"], arrival),
        row("FamilyService/GetArrival", .profileMember, notFound: ["ARRIVAL_NOT_FOUND"], onProfile),
        row("FamilyService/SquishArrival", .profileMember, notFound: ["ARRIVAL_NOT_FOUND"], onProfile),
        row("FamilyService/UnsquishArrival", .profileMember, notFound: ["ARRIVAL_NOT_FOUND"], onProfile),
        row("FamilyService/GetArrivalShare", .profileOwner, notFound: ["ARRIVAL_NOT_FOUND"], onProfile),
    ]

    @Sendable static func arrival(_ cast: Cast) -> [String: FieldValue] {
        [
            "profile_id": .text(cast.profile), "arrival.name": "Ada", "arrival.birth_date.year": 2026,
            "arrival.birth_date.month": 1, "arrival.birth_date.day": 2,
        ]
    }

    @Sendable static func onProfile(_ cast: Cast) -> [String: FieldValue] {
        ["profile_id": .text(cast.profile)]
    }
}
