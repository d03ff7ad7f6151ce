@testable import FamilyService
import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The notices' titles and bodies at rest (`NoticeText`): sealed in the inbox and the push outbox, read back
/// whole, and plaintext rows from before sealing sealed by `keys rotate-data`.
@Suite struct NoticeSealingTests {
    @Test func aPostedNoticeLeavesNeitherTitleNorBodyInADump() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            _ = try await notifications.registerDevice(
                for: me, platform: .fcm, token: "phone", pushEnabled: true)
            let notice = Notice(
                kind: .babyArrived, title: "Ottoline Quarrington",
                body: "Ottoline has arrived at Zanzibar Street")
            _ = try await pool.transaction { tx in
                try await NotificationInbox.post(
                    notice, to: me, at: Date(), sealedWith: TestDataKeys.cipher, in: tx)
            }
            let dump = try await dataDump(of: "family", on: pool)
            for marker in ["Ottoline", "Quarrington", "Zanzibar"] { #expect(!dump.contains(marker)) }
            let listed = try await notifications.list(for: me, page: try InboxPage(.init()))
            #expect(listed.notifications.map(\.title) == ["Ottoline Quarrington"])
            #expect(listed.notifications.map(\.body) == ["Ottoline has arrived at Zanzibar Street"])
            let pushed = try await pool.query(
                "SELECT kind::int, title, body, text_sealed FROM family.push_outbox"
            ).map { try openedNotice($0) }
            #expect(pushed.map(\.body) == ["Ottoline has arrived at Zanzibar Street"])
        }
    }

    @Test func plaintextNoticesFromBeforeSealingReadAsTheyAreUntilTheRotationSealsThem() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let me = NoticeDesk.user()
            let device = try await notifications.registerDevice(
                for: me, platform: .fcm, token: "phone", pushEnabled: true)
            let ids = try await desk.post(2, to: me)
            try await pool.query(
                """
                UPDATE family.notifications SET title = 'Before ' || seq, body = 'Plain ' || seq, text_sealed = NULL
                WHERE recipient_id = \(me)::uuid
                """)
            try await pool.query(
                "UPDATE family.push_outbox SET title = 'Before', body = 'Plain', text_sealed = NULL")
            #expect(
                try await notifications.list(for: me, page: try InboxPage(.init())).notifications.map(\.title)
                    == [
                        "Before 2", "Before 1",
                    ])

            let rotations = NoticeText.rotations(cipher: TestDataKeys.cipher, on: pool)
            var resealed: [Int] = []
            for rotation in rotations { resealed.append(try await rotation.resealAll()) }
            #expect(resealed == [2, 2])
            for rotation in rotations { #expect(try await rotation.resealAll() == 0) }
            #expect(!(try await dataDump(of: "family", on: pool)).contains("Before"))
            let listed = try await notifications.list(for: me, page: try InboxPage(.init())).notifications
            #expect(listed.map(\.notificationID) == ids.reversed())
            #expect(listed.map(\.body) == ["Plain 2", "Plain 1"])
            let pushed = try await pool.query(
                """
                SELECT kind::int, title, body, text_sealed FROM family.push_outbox
                WHERE device_id = \(device.deviceID)::uuid
                """
            ).map { try openedNotice($0) }
            #expect(pushed.map(\.title) == ["Before", "Before"])
        }
    }
}
