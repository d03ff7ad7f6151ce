@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredRuntime
@testable import ServiceTestSupport
import KindredTestSupport
import Testing

/// The in-app inbox: a user's own notifications, newest first, in pages; unread counts; marking read.
@Suite struct InboxTests {
    static func listRequest(unreadOnly: Bool = false, size: Int32 = 0, token: String = "")
        -> Kindred_Family_V1_ListNotificationsRequest
    {
        Kindred_Family_V1_ListNotificationsRequest(
            unreadOnly: unreadOnly, page: Kindred_Common_V1_PageRequest(pageSize: size, pageToken: token))
    }

    @Test func pagesGoNewestFirstWithTheUnreadCountAndEndWithoutAToken() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let ids = try await desk.post(5, to: me)
            try await desk.post(2, to: NoticeDesk.user())

            var pages: [[String]] = []
            var token = ""
            repeat {
                let page = try await notifications.list(
                    for: me, page: try InboxPage(Self.listRequest(size: 2, token: token)))
                #expect(page.unreadCount == 5)
                pages.append(page.notifications.map(\.notificationID))
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(pages == [[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]])
        }
    }

    @Test func unreadOnlyListsWhatIsUnreadAndMarkingCountsOnlyTheCallersOwn() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let stranger = NoticeDesk.user()
            let mine = try await desk.post(4, to: me)
            let theirs = try await desk.post(1, to: stranger)

            let named = try Notifications.marked([mine[0], mine[2].uppercased(), mine[2], theirs[0]])
            #expect(named.count == 3)
            let unread = try await notifications.markRead(named, for: me)
            #expect(unread == 2)
            let listed = try await notifications.list(
                for: me, page: try InboxPage(Self.listRequest(unreadOnly: true)))
            #expect(listed.notifications.map(\.notificationID) == [mine[3], mine[1]])
            #expect(listed.notifications.allSatisfy { $0.readAt == nil })
            let all = try await notifications.list(for: me, page: try InboxPage(Self.listRequest()))
            #expect(
                all.notifications.filter { $0.readAt != nil }.map(\.notificationID) == [mine[2], mine[0]])
            let strangers = try await notifications.list(
                for: stranger, page: try InboxPage(Self.listRequest()))
            #expect(strangers.unreadCount == 1 && strangers.notifications[0].readAt == nil)
        }
    }

    // UUIDv7 ids of one millisecond (or of a test's standing clock) are in random order.
    @Test func notificationsOfOneMillisecondListInTheOrderTheyCommitted() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let me = NoticeDesk.user()
            let instant = Date()
            for title in ["a", "b", "c", "d", "e", "f"] {
                _ = try await pool.transaction { tx in
                    try await NotificationInbox.post(
                        Notice(kind: .guardianLinked, title: title, body: ""), to: me, at: instant,
                        sealedWith: TestDataKeys.cipher, in: tx)
                }
            }
            let listed = try await Notifications(context: try NoticeDesk(pool).context).list(
                for: me, page: try InboxPage(Self.listRequest(size: 4)))
            #expect(listed.notifications.map(\.title) == ["f", "e", "d", "c"])
        }
    }

    @Test func malformedIdsAreRefusedNamingEachOne() {
        let error = #expect(throws: RPCError.self) {
            try Notifications.marked([NoticeDesk.user().description, "42", "'; DROP TABLE x"])
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.badFields == ["notification_ids[1]", "notification_ids[2]"])
        let tooMany = #expect(throws: RPCError.self) {
            try Notifications.marked(Array(repeating: "42", count: Notifications.markLimit + 1))
        }
        #expect(tooMany?.badFields.first == "notification_ids")
    }

    @Test func aPageTokenServesOnlyTheFilterItWasMadeFor() throws {
        let first = try InboxPage(Self.listRequest(size: 1))
        let token = first.nextToken(after: 7)
        #expect(try InboxPage(Self.listRequest(size: 1, token: token)).before == 7)
        let error = #expect(throws: RPCError.self) {
            try InboxPage(Self.listRequest(unreadOnly: true, token: token))
        }
        #expect(error?.badFields == ["page.page_token"])
        #expect(throws: RPCError.self) { try InboxPage(Self.listRequest(token: "bm90IGEgdG9rZW4")) }
    }

    @Test(arguments: [(Int32(0), 50), (1, 1), (500, 500), (501, 500), (100_000, 500)])
    func pageSizesDefaultTo50AndStopAt500(asked: Int32, served: Int) throws {
        #expect(try InboxPage(Self.listRequest(size: asked)).size == served)
    }

    @Test func aNegativePageSizeIsRefused() {
        let error = #expect(throws: RPCError.self) { try InboxPage(Self.listRequest(size: -1)) }
        #expect(error?.badFields == ["page.page_size"])
    }
}
