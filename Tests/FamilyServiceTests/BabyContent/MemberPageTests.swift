import Foundation
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// The reads of one profile that check membership in their own statement (`BabyMemberStore.readAsMember`): an empty
/// page, a deactivated profile and paging answer exactly as when the check was a statement of its own.
@Suite struct MemberPageTests {
    /// Each such read, as `user` calls it on `photo` and `event` of `profile`.
    private func reads(
        _ home: BabyContentFamily, as user: TestUser, profile: String, photo: String, event: String
    ) -> [(String, () async throws -> Void)] {
        let (family, options) = (home.family, user.bearer)
        return [
            ("ListPhotos", { _ = try await family.listPhotos(.init(profileID: profile), options: options) }),
            (
                "GetPhoto",
                { _ = try await family.getPhoto(.init(profileID: profile, photoID: photo), options: options) }
            ),
            (
                "DownloadPhoto",
                {
                    for try await _ in family.downloadPhoto(
                        .init(profileID: profile, photoID: photo), options: options)
                    {}
                }
            ),
            (
                "ListCalendarEvents",
                { _ = try await family.listCalendarEvents(.init(profileID: profile), options: options) }
            ),
            (
                "GetCalendarEvent",
                {
                    _ = try await family.getCalendarEvent(
                        .init(profileID: profile, eventID: event), options: options)
                }
            ),
            (
                "ListRegistryItems",
                { _ = try await family.listRegistryItems(.init(profileID: profile), options: options) }
            ),
            ("GetArrival", { _ = try await family.getArrival(.init(profileID: profile), options: options) }),
            (
                "ListComments",
                {
                    _ = try await family.listComments(
                        .init(target: .init(profileID: profile, target: .calendarEventID(event))),
                        options: options)
                }
            ),
            (
                "ListBabyProfileMembers",
                { _ = try await family.listBabyProfileMembers(.init(profileID: profile), options: options) }
            ),
        ]
    }

    @Test func aMemberOfAnEmptyProfileGetsEmptyPagesAndTheAnswerOfEachMissingThing() async throws {
        try await BabyContentFamily.with { home in
            let (family, profile, grandma) = (home.family, home.profile.description, home.grandma.bearer)
            let photos = try await family.listPhotos(.init(profileID: profile), options: grandma)
            let events = try await family.listCalendarEvents(.init(profileID: profile), options: grandma)
            let items = try await family.listRegistryItems(.init(profileID: profile), options: grandma)
            #expect(photos.photos.isEmpty && (photos.page?.nextPageToken ?? "").isEmpty)
            #expect(events.events.isEmpty && (events.page?.nextPageToken ?? "").isEmpty)
            #expect(items.items.isEmpty && (items.page?.nextPageToken ?? "").isEmpty)
            let missing = UUID().uuidString.lowercased()
            let refusals = [
                await rpcError {
                    try await family.getPhoto(.init(profileID: profile, photoID: missing), options: grandma)
                },
                await rpcError {
                    for try await _ in family.downloadPhoto(
                        .init(profileID: profile, photoID: missing), options: grandma)
                    {}
                },
                await rpcError {
                    try await family.getCalendarEvent(
                        .init(profileID: profile, eventID: missing), options: grandma)
                },
                await rpcError { try await family.getArrival(.init(profileID: profile), options: grandma) },
                await rpcError {
                    try await family.listComments(
                        .init(target: .init(profileID: profile, target: .calendarEventID(missing))),
                        options: grandma)
                },
            ]
            #expect(
                refusals.map { $0?.reason }
                    == [
                        "PHOTO_NOT_FOUND", "PHOTO_NOT_FOUND", "CALENDAR_EVENT_NOT_FOUND", "ARRIVAL_NOT_FOUND",
                        "COMMENT_TARGET_NOT_FOUND",
                    ])
            let event = try await home.createEvent().eventID
            let comments = try await family.listComments(
                .init(target: .init(profileID: profile, target: .calendarEventID(event))), options: grandma)
            #expect(comments.comments.isEmpty && (comments.page?.nextPageToken ?? "").isEmpty)
            #expect(refusals.allSatisfy { $0?.code == .notFound })
        }
    }

    @Test func aDeactivatedProfileAnswersEachReadAsAnUnknownProfileDoes() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let event = try await home.createEvent().eventID
            _ = try await home.createItem()
            _ = try await home.family.announceArrival(
                .init(profileID: home.profile.description, arrival: home.arrival()), options: home.mum.bearer)
            try await home.stack.pool.query(
                "UPDATE family.baby_profiles SET active = false WHERE profile_id = \(home.profile)::uuid")
            let unknown = BabyProfileID.generate(at: home.stack.clock.now).description
            for user in [home.mum, home.grandma] {
                let members = reads(
                    home, as: user, profile: home.profile.description, photo: photo, event: event)
                let nobody = reads(home, as: user, profile: unknown, photo: photo, event: event)
                for ((name, call), (_, unknownCall)) in zip(members, nobody) {
                    let refused = await rpcError(call)
                    let forUnknown = await rpcError(unknownCall)
                    #expect(
                        refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND", "\(name)")
                    #expect(
                        refused?.message == forUnknown?.message && refused?.details == forUnknown?.details,
                        "\(name)")
                }
            }
        }
    }

    @Test func anOwnerAndAFollowerPageThroughTheSameRowsInTheListsOrder() async throws {
        try await BabyContentFamily.with { home in
            let (family, profile) = (home.family, home.profile.description)
            var photos: [String] = []
            for _ in 0..<5 { photos.append(try await home.photo()) }
            var events: [String] = []
            // Created latest-starting first, so that the list's order (by start) is not the order of creation.
            for day in (1...4).reversed() {
                var event = home.event("Visit \(day)")
                event.startTime = home.stack.clock.now.addingTimeInterval(Double(day) * 86_400)
                events.insert(
                    try await family.createCalendarEvent(
                        .init(requestID: "visit-\(day)", profileID: profile, event: event),
                        options: home.mum.bearer
                    ).event!.name, at: 0)
            }
            var items: [String] = []
            for index in 0..<5 {
                home.stack.clock.advance(seconds: 1)
                items.append(try await home.createItem("Item \(index)").itemID)
            }
            for bought in [items[1], items[3]] {
                _ = try await family.purchaseRegistryItem(
                    .init(profileID: profile, itemID: bought), options: home.grandma.bearer)
            }
            let registryOrder = [items[0], items[2], items[4], items[1], items[3]]
            for user in [home.mum, home.grandma] {
                for size: Int32 in [1, 2, 10] {
                    let page = Kindred_Common_V1_PageRequest(pageSize: size)
                    #expect(
                        try await pages(page) {
                            let listed = try await family.listPhotos(
                                .init(profileID: profile, page: $0), options: user.bearer)
                            return (listed.photos.map(\.photoID), listed.page)
                        } == photos.sorted(by: >), "photos in pages of \(size)")
                    #expect(
                        try await pages(page) {
                            let listed = try await family.listCalendarEvents(
                                .init(profileID: profile, page: $0), options: user.bearer)
                            return (listed.events.map(\.name), listed.page)
                        } == events, "events in pages of \(size)")
                    #expect(
                        try await pages(page) {
                            let listed = try await family.listRegistryItems(
                                .init(profileID: profile, page: $0), options: user.bearer)
                            return (listed.items.map(\.itemID), listed.page)
                        } == registryOrder, "items in pages of \(size)")
                }
            }
        }
    }

    @Test func thePageSeesTheCallersRoleAndNothingIsReadForAStranger() async throws {
        try await BabyContentFamily.with { home in
            let (pool, profile) = (home.stack.pool, home.profile)
            let (mum, grandma, grandpa, stranger) = (
                try #require(UserID(home.mum.id)), try #require(UserID(home.grandma.id)),
                try #require(UserID(home.grandpa.id)), try #require(UserID(home.stranger.id))
            )
            let page: PostgresQuery = "SELECT n, member.role FROM generate_series(1, 3) AS n ORDER BY n DESC"
            let row = { (row: PostgresRow) in
                (try row.decode(Int.self, column: 0), try row.decode(Int.self, column: 1))
            }
            let owner = try #require(
                try await BabyMemberStore.readAsMember(page, readBy: mum, of: profile, on: pool, row: row))
            #expect(owner.role == .owner && owner.rows.map(\.0) == [3, 2, 1])
            #expect(owner.rows.allSatisfy { $0.1 == BabyRole.owner.rawValue })
            let follower = try #require(
                try await BabyMemberStore.readAsMember(page, readBy: grandma, of: profile, on: pool, row: row)
            )
            #expect(
                follower.role == .follower && follower.rows.allSatisfy { $0.1 == BabyRole.follower.rawValue })
            let empty = try await BabyMemberStore.readAsMember(
                "SELECT n FROM generate_series(1, 0) AS n", readBy: grandpa, of: profile, on: pool,
                row: { try $0.decode(Int.self, column: 0) })
            #expect(empty?.role == .follower && empty?.rows == [])
            // A page that would fail if it ran: a stranger's page is never read.
            let refused = try await BabyMemberStore.readAsMember(
                "SELECT 1 / (n - 1) FROM generate_series(1, 1) AS n", readBy: stranger, of: profile, on: pool,
                row: { try $0.decode(Int.self, column: 0) })
            #expect(refused == nil)
        }
    }

    /// Every row of a list, following its page tokens from `first`.
    private func pages(
        _ first: Kindred_Common_V1_PageRequest,
        _ list: (Kindred_Common_V1_PageRequest) async throws -> ([String], Kindred_Common_V1_PageResponse?)
    ) async throws -> [String] {
        var (request, rows) = (first, [String]())
        repeat {
            let (page, response) = try await list(request)
            #expect(page.count <= Int(first.pageSize))
            rows += page
            request.pageToken = response?.nextPageToken ?? ""
        } while !request.pageToken.isEmpty
        return rows
    }
}
