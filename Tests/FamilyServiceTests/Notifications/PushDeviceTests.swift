@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC
@testable import ServiceTestSupport
import Testing

/// Push devices: registered by token with an opt-in, moved when another user registers the token, and a
/// push message queued per opted-in device for each notification posted.
@Suite struct PushDeviceTests {
    static let apnsToken = String(repeating: "ab", count: 32)

    @Test func registeringTheSameTokenAgainUpdatesTheSameDevice() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let me = NoticeDesk.user()
            let first = try await notifications.registerDevice(
                for: me, platform: .apns, token: Self.apnsToken, pushEnabled: false)
            let again = try await notifications.registerDevice(
                for: me, platform: .apns, token: Self.apnsToken, pushEnabled: true)
            #expect(again.deviceID == first.deviceID && again.registeredAt == first.registeredAt)
            #expect(!first.pushEnabled && again.pushEnabled && again.platform == .apns)
        }
    }

    @Test func aPostQueuesOnePushMessagePerOptedInDeviceOfTheRecipientOnly() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let phone = try await notifications.registerDevice(
                for: me, platform: .apns, token: "phone", pushEnabled: true)
            _ = try await notifications.registerDevice(
                for: me, platform: .fcm, token: "tablet", pushEnabled: false)
            _ = try await notifications.registerDevice(
                for: NoticeDesk.user(), platform: .fcm, token: "theirs", pushEnabled: true)
            let posted = try await desk.post(1, to: me)
            let queued = try await pool.query(
                """
                SELECT device_id::text, device_token, platform, notification_id::text, recipient_id::text, kind,
                    title, body, text_sealed
                FROM family.push_outbox
                """
            ).map {
                (
                    try $0.decode(String.self, column: 0), try $0.decode(String.self, column: 1),
                    try $0.decode(Int.self, column: 2), try $0.decode(String.self, column: 3),
                    try $0.decode(String.self, column: 4), try openedNotice($0, from: 5).title
                )
            }
            #expect(queued.count == 1)
            #expect(
                queued.first.map { [$0.0, $0.1, $0.3, $0.4, $0.5] } == [
                    phone.deviceID, "phone", posted[0], me.description, "Notice 0",
                ])
            #expect(queued.first?.2 == 1)
        }
    }

    @Test func aTokenRegisteredByAnotherUserMovesToThemWithoutWhatWasQueuedForTheFirst() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let (first, second) = (NoticeDesk.user(), NoticeDesk.user())
            let old = try await notifications.registerDevice(
                for: first, platform: .fcm, token: "shared", pushEnabled: true)
            try await desk.post(2, to: first)
            let moved = try await notifications.registerDevice(
                for: second, platform: .fcm, token: "shared", pushEnabled: true)
            #expect(moved.deviceID != old.deviceID)
            #expect(try await desk.count("SELECT count(*)::int FROM family.push_outbox") == 0)
            let error = await #expect(throws: RPCError.self) {
                try await notifications.unregisterDevice(PushDeviceID(old.deviceID)!, for: first)
            }
            #expect(error?.code == .notFound)
            try await desk.post(1, to: first)
            #expect(try await desk.count("SELECT count(*)::int FROM family.push_outbox") == 0)
        }
    }

    @Test func optingOutDropsTheMessagesQueuedForTheDevice() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            _ = try await notifications.registerDevice(
                for: me, platform: .apns, token: Self.apnsToken, pushEnabled: true)
            try await desk.post(2, to: me)
            #expect(try await desk.count("SELECT count(*)::int FROM family.push_outbox") == 2)
            _ = try await notifications.registerDevice(
                for: me, platform: .apns, token: Self.apnsToken, pushEnabled: false)
            try await desk.post(1, to: me)
            #expect(try await desk.count("SELECT count(*)::int FROM family.push_outbox") == 0)
        }
    }

    @Test func onlyTheOwnerUnregistersADeviceAndItsQueuedMessagesGoWithIt() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let device = try await notifications.registerDevice(
                for: me, platform: .fcm, token: "mine", pushEnabled: true)
            try await desk.post(1, to: me)
            let stranger = await #expect(throws: RPCError.self) {
                try await notifications.unregisterDevice(
                    PushDeviceID(device.deviceID)!, for: NoticeDesk.user())
            }
            #expect(stranger?.code == .notFound && stranger?.reason == "PUSH_DEVICE_NOT_FOUND")
            try await notifications.unregisterDevice(PushDeviceID(device.deviceID)!, for: me)
            #expect(try await desk.count("SELECT count(*)::int FROM family.push_outbox") == 0)
            #expect(try await desk.count("SELECT count(*)::int FROM family.push_devices") == 0)
        }
    }

    @Test(arguments: [
        (Kindred_Family_V1_PushPlatform.unspecified, "t", ["platform"]),
        (.unrecognized(9), "t", ["platform"]),
        (.apns, "", ["device_token"]),
        (.fcm, String(repeating: "x", count: 4_097), ["device_token"]),
        (.fcm, "has space", ["device_token"]),
        (.unspecified, "", ["platform", "device_token"]),
    ])
    func aBadRegistrationNamesEveryBadField(
        platform: Kindred_Family_V1_PushPlatform, token: String, fields: [String]
    ) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let error = await #expect(throws: RPCError.self) {
                try await notifications.registerDevice(
                    for: NoticeDesk.user(), platform: platform, token: token, pushEnabled: true)
            }
            #expect(error?.badFields == fields)
        }
    }

    @Test func aTokenOf4096BytesIsAccepted() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let device = try await notifications.registerDevice(
                for: NoticeDesk.user(), platform: .fcm, token: String(repeating: "x", count: 4_096),
                pushEnabled: true)
            #expect(device.platform == .fcm)
        }
    }
}

/// Guardian notification settings: both on until changed.
@Suite struct NotificationSettingsTests {
    @Test func settingsStartOnAndKeepWhatTheUserChose() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let me = NoticeDesk.user()
            #expect(
                try await notifications.settings(of: me) == .init(activityAlerts: true, weeklySummary: true))
            let chosen = Kindred_Family_V1_NotificationSettings(activityAlerts: false, weeklySummary: true)
            #expect(try await notifications.updateSettings(chosen, of: me) == chosen)
            #expect(try await notifications.settings(of: me) == chosen)
            #expect(try await notifications.settings(of: NoticeDesk.user()).activityAlerts)
        }
    }

    @Test func anUpdateWithoutSettingsIsRefused() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let error = await #expect(throws: RPCError.self) {
                try await notifications.updateSettings(nil, of: NoticeDesk.user())
            }
            #expect(error?.badFields == ["settings"])
        }
    }
}
