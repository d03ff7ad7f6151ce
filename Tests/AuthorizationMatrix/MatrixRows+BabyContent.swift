extension MatrixRows {
    /// baby_content.proto and baby_gallery.proto: the calendar, comments, the registry and photos of a profile.
    static let babyContent: [MatrixRow] = [
        row("FamilyService/CreateCalendarEvent", .profileOwner) { cast in
            [
                "request_id": newRequestID, "profile_id": .text(cast.profile), "event.name": "Scan",
                "event.start_time.seconds": inAMonth, "event.time_zone": "UTC",
            ]
        },
        row("FamilyService/GetCalendarEvent", .profileMember, onEvent),
        row("FamilyService/UpdateCalendarEvent", .profileOwner) { cast in
            onEvent(cast).merging(["update_mask.paths": .texts(["name"]), "event.name": "Second scan"]) { $1 }
        },
        row("FamilyService/DeleteCalendarEvent", .profileOwner, fresh: true, onEvent),
        row("FamilyService/ListCalendarEvents", .profileMember, onProfile),
        row("FamilyService/SetRsvp", .profileFollower) { cast in onEvent(cast).merging(["answer": 1]) { $1 }
        },
        row("FamilyService/ListRsvps", .profileOwner, onEvent),
        row("FamilyService/AddComment", .profileMember) { cast in
            onEventTarget(cast).merging(["request_id": newRequestID, "text": "Lovely"]) { $1 }
        },
        row("FamilyService/ListComments", .profileMember, onEventTarget),
        // The author (the follower) or an owner.
        row("FamilyService/DeleteComment", .profileMember, fresh: true) { cast in
            ["profile_id": .text(cast.profile), "comment_id": .text(cast.comment)]
        },
        row("FamilyService/CreateRegistryItem", .profileOwner) { cast in
            ["request_id": newRequestID, "profile_id": .text(cast.profile), "item.name": "Cot"]
        },
        row("FamilyService/UpdateRegistryItem", .profileOwner) { cast in
            onItem(cast).merging(["update_mask.paths": .texts(["name"]), "item.name": "Big cot"]) { $1 }
        },
        row("FamilyService/DeleteRegistryItem", .profileOwner, fresh: true, onItem),
        row("FamilyService/ListRegistryItems", .profileMember, onProfile),
        row("FamilyService/PurchaseRegistryItem", .profileFollower, fresh: true, onItem),
        // The buyer or an owner; an item nobody bought comes back unchanged to any member.
        row("FamilyService/UndoRegistryPurchase", .profileMember, onItem),
        row("FamilyService/UploadPhoto", .profileOwner, usersOnly: true) { cast in
            ["metadata.request_id": newRequestID, "metadata.profile_id": .text(cast.profile)]
        },
        row("FamilyService/GetPhoto", .profileMember, usersOnly: true, onPhoto),
        // The cast's photo is a row without bytes on disk: the download finds nothing to send.
        row(
            "FamilyService/DownloadPhoto", .profileMember, usersOnly: true, notFound: ["PHOTO_NOT_FOUND"],
            onPhoto),
        row("FamilyService/ListPhotos", .profileMember, usersOnly: true, onProfile),
        row("FamilyService/UpdatePhotoCaption", .profileOwner, usersOnly: true) { cast in
            onPhoto(cast).merging(["caption": "First smile"]) { $1 }
        },
        row("FamilyService/DeletePhoto", .profileOwner, fresh: true, usersOnly: true, onPhoto),
        row("FamilyService/SquishPhoto", .profileMember, onPhoto),
        row("FamilyService/UnsquishPhoto", .profileMember, onPhoto),
    ]

    @Sendable static func onEvent(_ cast: Cast) -> [String: FieldValue] {
        ["profile_id": .text(cast.profile), "event_id": .text(cast.event)]
    }

    @Sendable static func onEventTarget(_ cast: Cast) -> [String: FieldValue] {
        ["target.profile_id": .text(cast.profile), "target.calendar_event_id": .text(cast.event)]
    }

    @Sendable static func onItem(_ cast: Cast) -> [String: FieldValue] {
        ["profile_id": .text(cast.profile), "item_id": .text(cast.item)]
    }

    @Sendable static func onPhoto(_ cast: Cast) -> [String: FieldValue] {
        ["profile_id": .text(cast.profile), "photo_id": .text(cast.photo)]
    }
}
