@testable import FamilyService
import KindredHandlers
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The read behind `WatchNotifications`' wake-ups: one statement for every recipient woken together, each read
/// after their own position.
@Suite struct InboxBatchReadTests {
    @Test func eachRecipientGetsTheirOwnNotificationsAfterTheirPositionAndOneWithoutAnyIsLeftOut()
        async throws
    {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let (ann, bob, cat) = (NoticeDesk.user(), NoticeDesk.user(), NoticeDesk.user())
            let anns = try await desk.post(3, to: ann)
            let bobs = try await desk.post(2, to: bob)
            let bobRead = try await InboxStore.streamStart(of: bob, after: NotificationID(bobs[0]), on: pool)
            let read = try await InboxStore.notifications(
                after: [ann: 0, bob: bobRead, cat: 0], limit: 2, cipher: TestDataKeys.cipher, on: pool)
            #expect(Set(read.keys) == [ann, bob])
            #expect(read[ann]?.map(\.notification.notificationID) == Array(anns.prefix(2)))
            #expect(read[bob]?.map(\.notification.notificationID) == [bobs[1]])
            #expect(read[bob]?.map(\.notification.title) == ["Notice 1"])
            #expect(read[ann].map { $0.map(\.seq) == $0.map(\.seq).sorted() } == true)
        }
    }
}
