@testable import FamilyService
import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRuntime
@testable import ServiceTestSupport
import Testing

/// `user.deleted` takes the notification part's data of the user with it: no push goes to their devices.
@Suite struct AccountDeletionTests {
    @Test func aDeletedUsersInboxDevicesSettingsAndActivityGoButTheirGuardiansAlertsStay() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let notifications = Notifications(context: desk.context)
            let family = GuardianAlertTests.Family()
            try await desk.link(guardian: family.guardian, to: family.minor)
            _ = try await notifications.registerDevice(
                for: family.minor, platform: .fcm, token: "minor-phone", pushEnabled: true)
            _ = try await notifications.updateSettings(
                .init(activityAlerts: false, weeklySummary: false), of: family.minor)
            try await desk.post(2, to: family.minor)
            try await GuardianAlertTests.apply(
                [GuardianAlertTests.reported(family.minor.description)], to: family, desk)

            let handler = IdentityEventHandler(
                clock: desk.context.clock, mail: desk.context.mail, logger: desk.context.logger)
            let deleted = ReceivedIdentityEvent(
                event: .init(cursor: 1, payload: .userDeleted(.init(userID: family.minor.description))))
            try await pool.transaction { tx in try await handler.apply(deleted, in: tx) }

            let minorsInbox = try await desk.count(
                "SELECT count(*)::int FROM family.notifications WHERE recipient_id = \(family.minor)::uuid")
            #expect(minorsInbox == 0)
            for table in ["push_devices", "push_outbox", "minor_activity", "notification_settings"] {
                // The table names are this test's constants.
                let rows = try await desk.count(
                    PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM family.\(table)"))
                #expect(rows == 0, "family.\(table)")
            }
            #expect(
                try await GuardianAlertTests.inbox(of: family.guardian, desk).map(\.kind) == [
                    .minorContentReported
                ])
        }
    }
}
