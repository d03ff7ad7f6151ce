import KindredHandlers
import KindredMessages
import KindredRPC

/// The caller's push devices and guardian notification settings.
extension Notifications {
    /// The longest device token accepted, in bytes: APNs tokens are 64 hex digits, FCM's a few hundred
    /// characters; the margin is for what providers may issue next.
    static let longestDeviceToken = 4_096

    /// Registers the device `token` names for `user`'s push messages; `pushEnabled` is the opt-in. The same
    /// token again updates the device; a token another user had moves to `user`.
    func registerDevice(
        for user: UserID, platform: Kindred_Family_V1_PushPlatform, token: String, pushEnabled: Bool
    ) async throws -> Kindred_Family_V1_PushDevice {
        var violations = FieldViolations()
        if platform != .apns && platform != .fcm {
            violations.add("platform", "must be PUSH_PLATFORM_APNS or PUSH_PLATFORM_FCM")
        }
        if token.isEmpty || token.utf8.count > Self.longestDeviceToken
            || !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            violations.add(
                "device_token",
                "must be 1 to \(Self.longestDeviceToken) printable ASCII characters, no spaces")
        }
        try violations.throwIfAny()
        let now = clock.now
        let device = try await database.transaction { tx in
            try await PushDeviceStore.register(
                token: token, for: user, platform: platform, pushEnabled: pushEnabled, at: now, in: tx)
        }
        guard let device else {
            throw RPCError(.aborted, "This device was removed at the same moment. Please try again.")
        }
        return device
    }

    /// Forgets one of `user`'s devices and the push messages queued for it; NOT_FOUND for any other id.
    func unregisterDevice(_ deviceID: PushDeviceID, for user: UserID) async throws {
        guard try await PushDeviceStore.unregister(deviceID, of: user, on: database) else {
            throw FamilyError.refusal(.notFound, "PUSH_DEVICE_NOT_FOUND", "You have no such push device.")
        }
    }

    /// `user`'s guardian notification settings: both on until they change them.
    func settings(of user: UserID) async throws -> Kindred_Family_V1_NotificationSettings {
        try await NotificationSettingsStore.settings(of: user, on: database)
    }

    /// Replaces `user`'s settings; safety alerts (reported content) have no setting: they always go out.
    /// Only the baby-profile kinds can be muted; each muted kind is stored once.
    func updateSettings(_ settings: Kindred_Family_V1_NotificationSettings?, of user: UserID) async throws
        -> Kindred_Family_V1_NotificationSettings
    {
        guard var settings else { throw FieldViolations.single("settings", "is required") }
        var violations = FieldViolations()
        for (index, kind) in settings.mutedKinds.enumerated() where !Self.mutableKinds.contains(kind) {
            violations.add("settings.muted_kinds[\(index)]", "is not a kind that can be switched off")
        }
        try violations.throwIfAny()
        settings.mutedKinds = Self.mutableKinds.filter(settings.mutedKinds.contains)
        try await NotificationSettingsStore.update(settings, of: user, at: clock.now, on: database)
        return settings
    }

    /// The kinds a user may switch off: every baby-profile kind, name suggestions and their likes included.
    static let mutableKinds: [Kindred_Family_V1_NotificationKind] =
        BabyActivityKind.allCases.map(\.notificationKind).filter { $0 != .unspecified } + [
            .babyNameLiked, .babyNameSuggested,
        ]
}
