@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The notification RPCs on the wire, on the test stack: who may call them and what a client reads.
@Suite struct NotificationsWireTests {
    static func post(_ title: String, to user: String, _ stack: FamilyTestStack) async throws {
        _ = try await stack.pool.transaction { tx in
            try await NotificationInbox.post(
                Notice(kind: .guardianLinked, title: title, body: ""), to: UserID(user)!, at: Date(),
                sealedWith: TestDataKeys.cipher, in: tx)
        }
    }

    @Test func aUserListsWatchesAndMarksTheirOwnInboxAndAServiceHasNone() async throws {
        try await FamilyTestStack.with { stack in
            let ann = try await stack.register("ann_n", age: 35)
            try await Self.post("first", to: ann.id, stack)
            let first = try await stack.family.listNotifications(.init(), options: ann.bearer)
            let firstID = try #require(first.notifications.first?.notificationID)

            var watchOptions = ann.bearer
            watchOptions.timeout = .seconds(30)
            let stream = stack.family.watchNotifications(
                .init(afterNotificationID: firstID), options: watchOptions)
            let watching = Task {
                var titles: [String] = []
                for try await notification in stream {
                    titles.append(notification.title)
                    if titles.count == 2 { break }
                }
                return titles
            }
            try await Self.post("second", to: ann.id, stack)
            try await Self.post("third", to: ann.id, stack)
            #expect(try await watching.value == ["second", "third"])

            let marked = try await stack.family.markNotificationsRead(
                .init(notificationIds: [firstID]), options: ann.bearer)
            #expect(marked.unreadCount == 2)
            let unread = try await stack.family.listNotifications(
                .init(unreadOnly: true), options: ann.bearer)
            #expect(unread.notifications.map(\.title) == ["third", "second"] && unread.unreadCount == 2)

            let service = await rpcError {
                try await stack.family.listNotifications(.init(), options: try await stack.serviceBearer())
            }
            #expect(service?.code == .permissionDenied)
            let malformed = await rpcError {
                try await stack.family.markNotificationsRead(
                    .init(notificationIds: ["x"]), options: ann.bearer)
            }
            #expect(malformed?.code == .invalidArgument)
        }
    }

    // A baby-profile write's notices go out with its COMMIT and their recipients are rung from that statement's
    // answer: an open stream gets the notice at once. The watch's deadline (5 s) is shorter than the bell's head
    // poll (10 s), so a notice that waited for the poll would end the stream first.
    @Test func aCommentsNoticeReachesAnOwnersOpenStreamWithoutWaitingForThePoll() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            try await Self.post("earlier", to: home.mum.id, home.stack)
            let earlier = try await home.family.listNotifications(.init(), options: home.mum.bearer)
            var watchOptions = home.mum.bearer
            watchOptions.timeout = .seconds(5)
            // From the cursor: what is posted after it reaches the stream however soon the stream is served.
            let stream = home.family.watchNotifications(
                .init(afterNotificationID: try #require(earlier.notifications.first?.notificationID)),
                options: watchOptions)
            let (opened, open) = AsyncStream.makeStream(of: Void.self)
            let watching = Task {
                defer { open.finish() }
                var kinds: [Kindred_Family_V1_NotificationKind] = []
                for try await notification in stream {
                    kinds.append(notification.kind)
                    open.yield()
                    if kinds.count == 2 { break }
                }
                return kinds
            }
            // The stream is live once it carries a first notice; the comment is written only then.
            try await Self.post("live", to: home.mum.id, home.stack)
            var live = opened.makeAsyncIterator()
            await live.next()
            _ = try await home.family.addComment(
                .init(
                    requestID: "notice-1",
                    target: .init(
                        profileID: home.profile.description, target: .calendarEventID(event.eventID)),
                    text: "How lovely"),
                options: home.grandma.bearer)
            #expect(try await watching.value == [.guardianLinked, .babyComment])
        }
    }

    @Test func pushDevicesAndSettingsRoundTrip() async throws {
        try await FamilyTestStack.with { stack in
            let ann = try await stack.register("ann_p", age: 35)
            let bob = try await stack.register("bob_p", age: 36)
            let registered = try await stack.family.registerPushDevice(
                .init(platform: .fcm, deviceToken: "fcm-token-1", pushEnabled: true), options: ann.bearer)
            let device = try #require(registered.device)
            #expect(device.platform == .fcm && device.pushEnabled && device.registeredAt != nil)
            let notYours = await rpcError {
                try await stack.family.unregisterPushDevice(
                    .init(deviceID: device.deviceID), options: bob.bearer)
            }
            #expect(notYours?.code == .notFound)
            _ = try await stack.family.unregisterPushDevice(
                .init(deviceID: device.deviceID), options: ann.bearer)

            let defaults = try await stack.family.getNotificationSettings(.init(), options: ann.bearer)
            #expect(defaults.settings == .init(activityAlerts: true, weeklySummary: true))
            _ = try await stack.family.updateNotificationSettings(
                .init(settings: .init(activityAlerts: false, weeklySummary: true)), options: ann.bearer)
            let changed = try await stack.family.getNotificationSettings(.init(), options: ann.bearer)
            #expect(changed.settings == .init(activityAlerts: false, weeklySummary: true))
        }
    }
}
