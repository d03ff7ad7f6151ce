import KindredEvents
import KindredMail
import KindredPostgres
import KindredRuntime

/// The `family` schema's migrations, in order; each one is shipped once and never edited after release.
enum FamilyMigrations {
    static let all: [Migration] = [
        v1CreateCore,
        MailOutbox.migration(schema: "family", version: 2),
        EventCursors.migration(schema: "family", version: 3),
        EventOutbox.migration(schema: "family", version: 4),
        v5CreateGuardianInvitations,
        v6CreateGuardianPin,
        v7CreateApprovalRequests,
        v8CreateNotificationDelivery,
        v9CreateGuardianAlerts,
        v10CreateBabyProfiles,
        v11CreateBabyActivity,
        v12CreateBabyInvitations,
        v13CreateCalendar,
        v14CreateRegistry,
        EventOutbox.migration(schema: "family", name: "baby_activity_feed", version: 15),
        v16BabyNotificationsAndSuggestions,
        v17CreateGallery,
        v18GalleryUploads,
        v19BabyProfileRetention,
        DailyJob.migration(schema: "family", version: 20),
        v21SealGuardianPins,
        v22SealBabyDetails,
        OutboxTraceparent(FamilyEvents.outbox, BabyActivityFeed.outbox).migration(version: 23),
        v24UnlinkProfileRequests,
        v25BabyNamesake,
        MailOutbox.sealingMigration(schema: "family", version: 26),
        v27SealNotices,
        v28SealActivityDetails,
        v29SealCommentTexts,
        v30SealCalendarAndRegistryTexts,
        v31SealProfileNames,
        v32SealInvitationEmails,
        v33SealArrivalMessages,
        v34SealLinks,
        v35PlannedBabyNamesake,
        v36RegistryListing,
        v37DropDuplicatePhotoIndex,
    ]
}
