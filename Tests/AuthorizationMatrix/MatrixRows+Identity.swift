extension MatrixRows {
    /// identity.proto: the public sign-in surface, the caller's own account, admins and services.
    static let identity: [MatrixRow] = [
        row("IdentityService/RegisterAccount", .publicMethod),
        row("IdentityService/VerifyEmail", .publicMethod, notFound: ["LINK_UNKNOWN"]) { _ in
            ["token": "no-such-token"]
        },
        row("IdentityService/ResendVerification", .publicMethod),
        row("IdentityService/Token", .publicMethod),
        row("IdentityService/RevokeToken", .publicMethod),
        row("IdentityService/SignOutEverywhere", .account),
        row("IdentityService/GetSigningKeys", .publicMethod),
        row("IdentityService/RequestPasswordReset", .publicMethod),
        row("IdentityService/ResetPassword", .publicMethod),
        row("IdentityService/ChangeDateOfBirth", .account),
        row("IdentityService/ConfirmDateOfBirthChange", .publicMethod),
        // A service's token names no account: there is none to show it.
        row("IdentityService/GetMe", .each([.service: .hidden], others: .allowed)),
        row("IdentityService/GetAccount", .anyCaller) { cast in ["user_id": .text(cast.ownerID)] },
        // The user, admins and services; anyone else is refused alike whether the user exists or not.
        row(
            "IdentityService/GetAgeRange",
            .each([.service: .allowed, .admin: .allowed], others: .deniedAsForNothing)
        ) { cast in ["user_id": .text(cast.minorID)] },
        row("IdentityService/SearchUsers", .anyCaller) { cast in
            ["username_prefix": .text(cast.ownerUsername)]
        },
        // Without the password: a caller who may delete gets INVALID_ARGUMENT, and the cast stays.
        row("IdentityService/DeleteAccount", .account, last: true),
        row("IdentityService/GetComplianceReport", .adminOnly),
        row("IdentityService/IssueDeviceModeTokens", .serviceOnly) { cast in
            ["user_id": .text(cast.ownerID), "mode": 1]
        },
        row("IdentityService/WatchEvents", .serviceOnly),
    ]
}
