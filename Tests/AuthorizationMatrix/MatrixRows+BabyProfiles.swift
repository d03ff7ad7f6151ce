extension MatrixRows {
    /// baby_profiles.proto and baby_activity.proto: a stranger to the profile is told it does not exist.
    static let babyProfiles: [MatrixRow] = [
        row("FamilyService/CreateBabyProfile", .account) { _ in ["request_id": newRequestID, "name": "Bean"]
        },
        row("FamilyService/GetBabyProfile", .profileMember, onProfile),
        row("FamilyService/UpdateBabyProfile", .profileOwner) { cast in
            [
                "profile.profile_id": .text(cast.profile), "update_mask": .texts(["name"]),
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
        row("FamilyService/ResendBabyProfileInvitation", .profileOwner, notFound: true) { cast in
            ["profile_id": .text(cast.profile), "invitation_id": newRequestID]
        },
        row("FamilyService/RevokeBabyProfileInvitation", .profileOwner, notFound: true) { cast in
            ["profile_id": .text(cast.profile), "invitation_id": newRequestID]
        },
        row("FamilyService/AcceptBabyProfileInvitation", .account, notFound: true) { _ in
            ["token": "no-such-link"]
        },
        row("FamilyService/ListBabyProfileMembers", .profileMember, onProfile),
        row("FamilyService/LeaveBabyProfile", .profileMember, fresh: true, onProfile),
        row("FamilyService/RemoveBabyProfileMember", .profileOwner, fresh: true) { cast in
            ["profile_id": .text(cast.profile), "user_id": .text(cast.followerID)]
        },
        row("FamilyService/GetHome", .profileMember, onProfile),
        row("FamilyService/ListSuggestions", .profileOwner, onProfile),
        row("FamilyService/WatchProfileActivity", .profileMember) { cast in
            ["profile_ids": .texts([cast.profile])]
        },
        // The arrival is not announced in the cast: a member's reads of it are ARRIVAL_NOT_FOUND.
        row("FamilyService/AnnounceArrival", .profileOwner, onProfile),
        row("FamilyService/UpdateArrival", .profileOwner, notFound: true, onProfile),
        row("FamilyService/GetArrival", .profileMember, notFound: true, onProfile),
        row("FamilyService/SquishArrival", .profileMember, notFound: true, onProfile),
        row("FamilyService/UnsquishArrival", .profileMember, notFound: true, onProfile),
        row("FamilyService/GetArrivalShare", .profileOwner, notFound: true, onProfile),
    ]

    @Sendable static func onProfile(_ cast: Cast) -> [String: FieldValue] {
        ["profile_id": .text(cast.profile)]
    }
}
