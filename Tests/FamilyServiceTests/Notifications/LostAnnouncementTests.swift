@testable import FamilyService
import KindredHandlers
@testable import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A notification committed by an instance that died before its NOTIFY (or whose NOTIFY failed) still reaches
/// the recipient's streams on the other instances: their bell looks at the recipients' heads every
/// `headPollInterval`. Nothing else would wake them: family's idempotent retries answer with what is stored and
/// announce nothing, and an event consumer's cursor has moved past the event that posted it (issue 30).
@Suite struct LostAnnouncementTests {
    /// Makes `pool` lose every announcement on the inbox channel, as an instance that dies between its commit
    /// and its announcement: its announcer sends through a pool that is closed, fails and logs.
    static func loseAnnouncements(of pool: PostgresPool) async {
        let closed = PostgresPool(configuration: pool.configuration, logger: FamilyTestDatabase.logger)
        await closed.close()
        let mute = RecipientAnnouncer(
            channel: NotificationInbox.channel, pool: closed, logger: FamilyTestDatabase.logger)
        pool.announcers.withLock { $0[NotificationInbox.channel] = mute }
    }

    @Test func aNotificationWhoseAnnouncementWasLostReachesAStreamOnAnotherInstance() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context, headPollInterval: .milliseconds(200))
            let me = NoticeDesk.user()
            let before = try await desk.post(1, to: me)
            let (collector, task) = WatchNotificationsTests.watch(notifications, me, after: before[0])
            // The stream is live once an announced notification reached it.
            let announced = try await desk.post(1, to: me)
            #expect(try await collector.first(1).map(\.notificationID) == announced)
            let dying = WatchNotificationsTests.otherInstance(of: pool)
            await Self.loseAnnouncements(of: dying)
            let lost = try await NoticeDesk(dying).post(1, to: me)
            #expect(try await collector.first(2).map(\.notificationID) == announced + lost)
            // Sent once: the next announced one follows it directly.
            let next = try await desk.post(1, to: me)
            #expect(try await collector.first(3).map(\.notificationID) == announced + lost + next)
            task.cancel()
            await notifications.bell.close()
            await dying.close()
        }
    }

    @Test func theHeadsAreEachRecipientsNewestPositionAndNothingForOneWithout() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let (ann, bob, nobody) = (NoticeDesk.user(), NoticeDesk.user(), NoticeDesk.user())
            try await desk.post(3, to: ann)
            try await desk.post(1, to: bob)
            let heads = try await InboxStore.heads(of: [ann, bob, nobody], on: pool)
            #expect(heads == [ann: 3, bob: 1])
        }
    }
}
