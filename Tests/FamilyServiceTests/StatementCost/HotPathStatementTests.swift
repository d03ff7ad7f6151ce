import Foundation
import KindredMessages
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// What each RPC of the load mix's baby personas (grandparent, baby_owner: `Tests/LoadTest/mix.json`) costs
/// PostgreSQL: statements a call (BEGIN and COMMIT included) and execution time a call, from
/// `pg_stat_statements`, over `calls` calls each after a warm-up. Prints the table `Services/Family/README.md`
/// quotes, and holds each RPC to its statement budget (what it ran when issue 27's round trips were cut).
@Suite(.serialized) struct HotPathStatementTests {
    static let calls = 40

    @Test func babyPersonasWritesAndReadsStayWithinTheirStatementBudgets() async throws {
        try await BabyContentFamily.with { home in
            guard let tally = try await StatementTally.start(on: home.stack.pool) else {
                Issue.record("the test cluster must preload pg_stat_statements (Tests/postgres-test-cluster)")
                return
            }
            var report = StatementReport(calls: Self.calls, tally: tally)
            let (family, profile) = (home.family, home.profile.description)
            let event = try await home.createEvent()
            let target = Kindred_Family_V1_CommentTarget(
                profileID: profile, target: .calendarEventID(event.eventID))
            try await report.measure("AddComment", budget: 3) { call in
                _ = try await family.addComment(
                    .init(requestID: "comment-\(call)", target: target, text: "Lovely \(call)"),
                    options: home.grandma.bearer)
            }
            try await report.measure("SetRsvp", budget: 3) { call in
                _ = try await family.setRsvp(
                    .init(
                        profileID: profile, eventID: event.eventID,
                        answer: call % 2 == 0 ? .attending : .maybe), options: home.grandma.bearer)
            }
            try await report.measure("CreateCalendarEvent", budget: 3) { call in
                _ = try await family.createCalendarEvent(
                    .init(requestID: "event-\(call)", profileID: profile, event: home.event("Party \(call)")),
                    options: home.mum.bearer)
            }
            var items: [String] = []
            try await report.measure("CreateRegistryItem", budget: 4) { call in
                items.append(
                    try await family.createRegistryItem(
                        .init(
                            requestID: "item-\(call)", profileID: profile,
                            item: .init(name: "Pram \(call)", linkURL: "https://shop.example.com/\(call)")),
                        options: home.mum.bearer
                    ).item!.itemID)
            }
            try await report.measure("PurchaseRegistryItem", budget: 3) { call in
                _ = try await family.purchaseRegistryItem(
                    .init(profileID: profile, itemID: items[call]), options: home.grandma.bearer)
            }
            var uploaded: [String] = []
            try await report.measure("UploadPhoto", budget: 6) { call in
                uploaded.append(try await home.upload(PhotoFixtures.jpeg, caption: "Photo \(call)").photoID)
            }
            try await report.measure("DownloadPhoto", budget: 1) { call in
                for try await _ in family.downloadPhoto(
                    .init(profileID: profile, photoID: uploaded[call]), options: home.grandma.bearer)
                {}
            }
            var photos: [String] = []
            for _ in 0..<(Self.calls + StatementReport.warmUp) { photos.append(try await home.photo()) }
            try await report.measure("SquishPhoto", budget: 3) { call in
                _ = try await family.squishPhoto(
                    .init(profileID: profile, photoID: photos[call]), options: home.grandma.bearer)
            }
            try await report.measure("UnsquishPhoto", budget: 2) { call in
                _ = try await family.unsquishPhoto(
                    .init(profileID: profile, photoID: photos[call]), options: home.grandma.bearer)
            }
            var profiles: [String] = []
            for _ in 0..<(Self.calls + StatementReport.warmUp) {
                profiles.append(
                    try await home.stack.babyProfile(
                        ownedBy: home.mum, followers: [home.grandma, home.grandpa]
                    )
                    .description)
            }
            try await report.measure("AnnounceArrival", budget: 5) { call in
                _ = try await family.announceArrival(
                    .init(profileID: profiles[call], arrival: home.arrival()), options: home.mum.bearer)
            }
            try await report.measure("SquishArrival", budget: 3) { call in
                _ = try await family.squishArrival(
                    .init(profileID: profiles[call]), options: home.grandma.bearer)
            }
            try await report.measure("UnsquishArrival", budget: 1) { call in
                _ = try await family.unsquishArrival(
                    .init(profileID: profiles[call]), options: home.grandma.bearer)
            }
            try await report.measure("GetHome", budget: 2) { _ in
                _ = try await family.getHome(.init(), options: home.grandma.bearer)
            }
            try await report.measure("ListCalendarEvents", budget: 1) { _ in
                _ = try await family.listCalendarEvents(
                    .init(profileID: profile), options: home.grandma.bearer)
            }
            try await report.measure("ListRegistryItems", budget: 1) { _ in
                _ = try await family.listRegistryItems(
                    .init(profileID: profile), options: home.grandma.bearer)
            }
            try await report.measure("ListPhotos", budget: 1) { _ in
                _ = try await family.listPhotos(
                    .init(profileID: profile, page: .init(pageSize: 20)), options: home.grandma.bearer)
            }
            try await report.measure("GetArrival", budget: 1) { call in
                _ = try await family.getArrival(
                    .init(profileID: profiles[call]), options: home.grandma.bearer)
            }
            print(report.text)
        }
    }
}
