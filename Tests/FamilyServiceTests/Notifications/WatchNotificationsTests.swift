@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
@testable import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `WatchNotifications`: a user's new notifications as they commit, in any instance, in commit order, from a
/// resume point; one listener per process; ended by the drain.
@Suite struct WatchNotificationsTests {
    /// Watches `recipient` until the returned task is cancelled or the bell closes.
    static func watch(_ notifications: Notifications, _ recipient: UserID, after: String? = nil)
        -> (StreamCollector<Kindred_Family_V1_Notification>, Task<Void, any Error>)
    {
        let collector = StreamCollector<Kindred_Family_V1_Notification>()
        let afterID = after.map { NotificationID($0)! }
        let task = Task {
            try await notifications.watch(for: recipient, after: afterID) { collector.add($0) }
        }
        return (collector, task)
    }

    /// Another instance of the service: a pool of its own on the same database.
    static func otherInstance(of pool: PostgresPool) -> PostgresPool {
        PostgresPool(configuration: pool.configuration, logger: FamilyTestDatabase.logger)
    }

    @Test func aPostCommittedByAnotherInstanceReachesTheStream() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let before = try await desk.post(1, to: me)
            let (collector, task) = Self.watch(notifications, me, after: before[0])
            let other = Self.otherInstance(of: pool)
            let posted = try await NoticeDesk(other).post(2, to: me)
            #expect(try await collector.first(2).map(\.notificationID) == posted)
            task.cancel()
            await notifications.bell.close()
            await other.close()
        }
    }

    @Test func aStreamResumesAfterTheGivenNotificationAndSendsNothingOfOthers() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let earlier = try await desk.post(3, to: me)
            let (collector, task) = Self.watch(notifications, me, after: earlier[0])
            #expect(try await collector.first(2).map(\.notificationID) == Array(earlier[1...]))
            try await desk.post(2, to: NoticeDesk.user())
            let later = try await desk.post(1, to: me)
            #expect(try await collector.first(3).map(\.notificationID) == earlier[1...] + later)
            task.cancel()
            await notifications.bell.close()
            #expect(collector.received.count == 3)
        }
    }

    @Test func withoutAResumePointOnlyNewNotificationsAreSent() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            try await desk.post(2, to: me)
            let (collector, task) = Self.watch(notifications, me)
            try await eventually("the stream started") { notifications.bell.streamsStarted == 1 }
            let new = try await desk.post(1, to: me)
            #expect(try await collector.first(1).map(\.notificationID) == new)
            // Nothing old follows: the stream is in commit order, so the next post comes right after.
            let next = try await desk.post(1, to: me)
            #expect(try await collector.first(2).map(\.notificationID) == new + next)
            task.cancel()
            await notifications.bell.close()
        }
    }

    // Ids are UUIDv7, in creation order; commits come in any order. A stream that followed ids would send the
    // later-created notice and then skip the one created earlier that committed after it.
    @Test func aNotificationCreatedEarlierButCommittedLaterIsNotSkipped() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let marker = try await desk.post(1, to: me)
            let (collector, task) = Self.watch(notifications, me, after: marker[0])
            let created = Date()
            let (posted, signal) = AsyncStream.makeStream(of: Void.self)
            let later = Task {
                try await pool.transaction { tx in
                    let notice = Notice(kind: .approvalRequested, title: "later id", body: "")
                    try await NotificationInbox.post(
                        notice, to: me, at: created + 1, sealedWith: TestDataKeys.cipher, in: tx)
                    signal.yield()
                    // Commits once the earlier-created post waits for this one's lock on the recipient's order.
                    try await eventually("the earlier post waits behind this one") {
                        try await tx.query("SELECT pg_stat_clear_snapshot()")
                        return try await tx.query(
                            """
                            SELECT count(*)::int FROM pg_stat_activity
                            WHERE datname = current_database() AND wait_event_type = 'Lock'
                            """)[0].decode(Int.self, column: 0) == 1
                    }
                }
            }
            for await _ in posted { break }
            try await pool.transaction { tx in
                let notice = Notice(kind: .approvalRequested, title: "earlier id", body: "")
                try await NotificationInbox.post(
                    notice, to: me, at: created, sealedWith: TestDataKeys.cipher, in: tx)
            }
            try await later.value
            #expect(try await collector.first(2).map(\.title) == ["later id", "earlier id"])
            task.cancel()
            await notifications.bell.close()
        }
    }

    @Test func postsRacingFromManyTransactionsAreEachSentOnce() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let marker = try await desk.post(1, to: me)
            let (collector, task) = Self.watch(notifications, me, after: marker[0])
            let other = Self.otherInstance(of: pool)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        try await (index.isMultiple(of: 2) ? pool : other).transaction { tx in
                            let notice = Notice(kind: .approvalRequested, title: "\(index)", body: "")
                            try await NotificationInbox.post(
                                notice, to: me, at: Date(), sealedWith: TestDataKeys.cipher, in: tx)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let sent = try await collector.first(24)
            #expect(Set(sent.map(\.title)) == Set((0..<24).map(String.init)))
            // None is sent twice: a post committed after all of them is the very next one the stream sends.
            let last = try await desk.post(1, to: me)
            #expect(try await collector.first(25).last?.notificationID == last.first)
            task.cancel()
            await notifications.bell.close()
            await other.close()
        }
    }

    @Test func everyStreamOfAProcessSharesOneListeningConnection() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let users = (0..<40).map { _ in NoticeDesk.user() }
            let streams = users.map { Self.watch(notifications, $0) }
            try await eventually("every stream started") { notifications.bell.streamsStarted == users.count }
            let listeners = {
                try await desk.count(
                    """
                    SELECT count(*)::int FROM pg_stat_activity
                    WHERE datname = current_database() AND query LIKE 'LISTEN%'
                    """)
            }
            try await eventually("the bell listens") { try await listeners() > 0 }
            #expect(try await listeners() == 1)
            let posted = try await desk.post(1, to: users[7])
            #expect(try await streams[7].0.first(1).map(\.notificationID) == posted)
            #expect(streams.enumerated().allSatisfy { $0.offset == 7 || $0.element.0.received.isEmpty })
            streams.forEach { $0.1.cancel() }
            await notifications.bell.close()
        }
    }

    @Test func theDrainEndsEveryStreamAndRefusesNewOnes() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let streams = (0..<3).map { _ in Self.watch(notifications, NoticeDesk.user()) }
            try await eventually("the streams started") { notifications.bell.streamsStarted == 3 }
            await notifications.bell.close()
            for (_, task) in streams { try await task.value }
            try await notifications.watch(for: NoticeDesk.user(), after: nil) { _ in
                Issue.record("a stream opened after the drain sent something")
            }
        }
    }

    @Test func aClientLeavingEndsItsStream() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let notifications = Notifications(context: try NoticeDesk(pool).context)
            let (_, task) = Self.watch(notifications, NoticeDesk.user())
            try await eventually("the stream started") { notifications.bell.streamsStarted == 1 }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            await notifications.bell.close()
        }
    }

    @Test func aMalformedResumePointIsRefused() throws {
        let error = #expect(throws: RPCError.self) { try Notifications.resumePoint("yesterday") }
        #expect(error?.badFields == ["after_notification_id"])
        #expect(try Notifications.resumePoint("") == nil)
    }
}
