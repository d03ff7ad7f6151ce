extension MatrixRows {
    /// family.proto: profiles, guardians, the PIN, parental controls, approvals, device modes, notifications.
    static let family: [MatrixRow] = [
        row("FamilyService/GetProfile", .anyCaller) { cast in ["user_id": .text(cast.ownerID)] },
        row("FamilyService/UpdateProfile", .account),
        // A minor invites; the cast's callers are adults.
        row("FamilyService/InviteGuardian", .only([], others: .deniedAsForNothing)) { _ in
            ["request_id": newRequestID, "guardian_email": "someone@example.com"]
        },
        row("FamilyService/AcceptGuardianInvitation", .account, notFound: ["LINK_UNKNOWN"]) { _ in
            ["token": "no-such-token"]
        },
        row("FamilyService/ListGuardianLinks", .account),
        row("FamilyService/SetGuardianPin", .minorsGuardian(principals: .hidden)) { cast in
            ["minor_user_id": .text(cast.minorID), "pin": "2580", "pin_confirmation": "2580"]
        },
        row("FamilyService/VerifyGuardianPin", .minorsGuardian(principals: .hidden)) { cast in
            ["minor_user_id": .text(cast.minorID), "pin": "2580"]
        },
        row("FamilyService/RequestGuardianPinReset", .minorsGuardian(principals: .hidden), last: true) {
            cast in
            ["minor_user_id": .text(cast.minorID)]
        },
        // Ends the guardian link every guardian row needs: the last row of all.
        row("FamilyService/RemoveGuardianLink", .each([.guardian: .allowed, .service: .hidden]), last: true) {
            cast in ["link_id": .text(cast.guardianLink)]
        },
        row("FamilyService/ResetGuardianPin", .publicMethod),
        // A guardian without a PIN session is refused; services and admins read the settings.
        row(
            "FamilyService/GetParentalControls",
            .each([.guardian: .denied, .service: .allowed, .admin: .allowed])
        ) {
            cast in
            ["user_id": .text(cast.minorID)]
        },
        row("FamilyService/GetParentalControlsStatus", .minorsGuardian(principals: .allowed)) { cast in
            ["user_id": .text(cast.minorID)]
        },
        // Without a PIN session even the guardian is refused; services and admins change no one's controls.
        row(
            "FamilyService/UpdateParentalControls",
            .each([.guardian: .denied, .service: .hidden, .admin: .hidden])
        ) {
            cast in
            [
                "minor_user_id": .text(cast.minorID), "update_mask.paths": .texts(["content_filtering"]),
                "controls.content_filtering": true,
            ]
        },
        row("FamilyService/CreateApprovalRequest", .only([.service], others: .deniedAsForNothing)) { cast in
            [
                "minor_user_id": .text(cast.minorID), "kind": 1, "subject_id": newRequestID,
                "summary": "A picnic",
            ]
        },
        // An admin guards nobody: the request does not exist for them.
        row(
            "FamilyService/GetApprovalRequest",
            .each([.guardian: .allowed, .service: .allowed, .admin: .hidden])
        ) {
            cast in
            ["approval_id": .text(cast.approval)]
        },
        row("FamilyService/ListApprovalRequests", .account),
        row("FamilyService/DecideApprovalRequest", .each([.guardian: .allowed, .admin: .hidden])) { cast in
            ["approval_id": .text(cast.approval), "approve": true]
        },
        row("FamilyService/EnterChildMode", .account),
        row("FamilyService/EnterParentMode", .account, childMode: true),
        row("FamilyService/ListNotifications", .account),
        row("FamilyService/MarkNotificationsRead", .account) { _ in
            ["notification_ids": .texts([newRequestIDText])]
        },
        row("FamilyService/WatchNotifications", .account),
        row("FamilyService/RegisterPushDevice", .account) { _ in
            ["platform": 2, "device_token": newRequestID, "push_enabled": true]
        },
        row("FamilyService/UnregisterPushDevice", .account, notFound: ["PUSH_DEVICE_NOT_FOUND"]) { _ in
            ["device_id": newRequestID]
        },
        row("FamilyService/GetNotificationSettings", .account),
        row("FamilyService/UpdateNotificationSettings", .account) { _ in ["settings.weekly_summary": true] },
        row("FamilyService/WatchEvents", .serviceOnly),
        row("FamilyService/GetBabyMembership", .serviceOnly) { cast in
            ["profile_id": .text(cast.profile), "user_id": .text(cast.followerID)]
        },
        row("FamilyService/SharesBabyProfile", .serviceOnly) { cast in
            ["user_id": .text(cast.ownerID), "other_user_id": .text(cast.followerID)]
        },
    ]
}
