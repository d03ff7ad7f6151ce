import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// The arrival announcement: owners announce once and correct it; it names the profile, tells every
/// follower, emits baby.arrived, tops every member's home; members read and squish it.
@Suite struct ArrivalTests {
    @Test func announcingNamesTheProfileTellsEveryFollowerAndEmitsBabyArrived() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let device = try await home.family.registerPushDevice(
                .init(platform: .apns, deviceToken: "grandma-phone", pushEnabled: true),
                options: home.grandma.bearer)
            let announced = try await home.announce(home.arrival(photo: photo))
            #expect(announced.name == "Lily" && announced.photoID == photo)
            #expect(announced.weightGrams == 3_450 && announced.lengthMm == 510)
            #expect(announced.birthTime == Kindred_Family_V1_BirthTime(hours: 14, minutes: 5))
            #expect(announced.announcedByUserID == home.mum.id && announced.squishCount == 0)
            let profile = try await home.family.getBabyProfile(
                .init(profileID: home.profile.description), options: home.grandpa.bearer)
            #expect(profile.profile?.name == "Lily")
            for follower in [home.grandma, home.grandpa] {
                let notices = try await home.stack.notices(of: follower)
                #expect(notices.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.babyArrived.rawValue)])
                #expect(notices.first?.title == "Lily" && notices.first?.body == "Lily has arrived!")
            }
            #expect(try await home.stack.notices(of: home.mum).isEmpty)
            let pushed = try await home.stack.pool.query(
                """
                SELECT kind::int, title, body, text_sealed FROM family.push_outbox
                WHERE device_id = \(try #require(device.device).deviceID)::uuid
                """
            ).map { try openedNotice($0).body }
            #expect(pushed == ["Lily has arrived!"])
            let events = try await home.events()
            #expect(events.map(\.type) == ["baby.arrived"])
            guard case .babyArrived(let arrived) = events.first?.event.payload else {
                Issue.record("baby.arrived carries \(String(describing: events.first?.event.payload))")
                return
            }
            #expect(arrived.profileID == home.profile.description && arrived.name == "Lily")
            #expect(arrived.birthDate == announced.birthDate && arrived.announcedAt == announced.announcedAt)
            #expect(arrived.actorID == home.mum.id && !arrived.activityID.isEmpty)
            #expect(try await home.activityKinds() == [.babyArrived])
        }
    }

    @Test func aFollowersStreamAndAServiceWatchingEventsSeeTheArrival() async throws {
        try await BabyContentFamily.with { home in
            let (stream, watching) = WatchProfileActivityTests.watch(
                home.stack, home.grandma, .init(afterCursor: "0"))
            let service = try await home.stack.serviceBearer()
            let events = Task { () -> Kindred_Family_V1_Event? in
                for try await event in home.family.watchEvents(.init(afterCursor: 0), options: service) {
                    return event
                }
                return nil
            }
            try await home.announce()
            let entries = try await home.count("baby_activity")
            let received = try await stream.first(entries)
            #expect(received.last?.activity?.kind == .babyArrived)
            #expect(received.last?.activity?.detail == "Lily")
            watching.cancel()
            let event = try await events.value
            #expect(event?.type == "baby.arrived")
            guard case .babyArrived(let arrived) = event?.payload else {
                Issue.record("WatchEvents sent \(String(describing: event))")
                return
            }
            #expect(arrived.profileID == home.profile.description && arrived.name == "Lily")
        }
    }

    @Test func aSecondAnnouncementIsRefusedAndOwnersCorrectTheFirst() async throws {
        try await BabyContentFamily.with { home in
            try await home.announce()
            let refused = await rpcError { try await home.announce(home.arrival(name: "Rose")) }
            #expect(refused?.code == .failedPrecondition && refused?.reason == "ALREADY_ANNOUNCED")
            var corrected = home.arrival(name: "Lily Rose")
            corrected.weightGrams = 3_500
            corrected.birthTime = nil
            let updated = try #require(
                try await home.family.updateArrival(
                    .init(profileID: home.profile.description, arrival: corrected), options: home.mum.bearer
                ).arrival)
            #expect(updated.name == "Lily Rose" && updated.weightGrams == 3_500 && updated.birthTime == nil)
            let read = try await home.family.getArrival(
                .init(profileID: home.profile.description), options: home.grandma.bearer)
            #expect(read.arrival == updated)
            // The correction tells nobody again and emits nothing more.
            #expect(try await home.stack.notices(of: home.grandma).count == 1)
            #expect(try await home.events().map(\.type) == ["baby.arrived"])
        }
    }

    @Test func concurrentAnnouncementsMakeOne() async throws {
        try await BabyContentFamily.with { home in
            let answers = await withTaskGroup(of: RPCError?.self) { group in
                for _ in 0..<6 { group.addTask { await rpcError { try await home.announce() } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0 == nil }.count == 1)
            #expect(answers.compactMap { $0?.reason } == Array(repeating: "ALREADY_ANNOUNCED", count: 5))
            let events = try await home.events()
            #expect(events.count == 1)
        }
    }

    @Test func badDetailsAreRefusedFieldByField() async throws {
        try await BabyContentFamily.with { home in
            var arrival = home.arrival()
            arrival.birthDate = DateComponents(year: 2026, month: 2, day: 30)
            arrival.weightGrams = -3
            arrival.birthTime = Kindred_Family_V1_BirthTime(hours: 24, minutes: 0)
            let refused = await rpcError { try await home.announce(arrival) }
            #expect(refused?.code == .invalidArgument)
            let fields = Set(refused?.badFields ?? [])
            #expect(fields == ["arrival.birth_date", "arrival.weight_grams", "arrival.birth_time"])
            let future = home.arrival()
            var later = future
            later.birthDate?.year? += 1
            #expect(await rpcError { try await home.announce(later) }?.code == .invalidArgument)
            let unknownPhoto = await rpcError {
                try await home.announce(home.arrival(photo: UUID().uuidString))
            }
            #expect(unknownPhoto?.code == .notFound && unknownPhoto?.reason == "PHOTO_NOT_FOUND")
            let stored = try await home.count("baby_arrivals")
            #expect(stored == 0)
        }
    }

    @Test func membersSquishTheAnnouncementOnceAndOwnersHearOfIt() async throws {
        try await BabyContentFamily.with { home in
            let ids = home.profile.description
            let before = await rpcError {
                try await home.family.squishArrival(.init(profileID: ids), options: home.grandma.bearer)
            }
            #expect(before?.code == .notFound && before?.reason == "ARRIVAL_NOT_FOUND")
            try await home.announce()
            for _ in 0..<2 {
                _ = try await home.family.squishArrival(.init(profileID: ids), options: home.grandma.bearer)
            }
            let dad = try await home.family.squishArrival(.init(profileID: ids), options: home.grandpa.bearer)
            #expect(dad.squishCount == 2 && dad.squishedByMe)
            let read = try await home.family.getArrival(.init(profileID: ids), options: home.grandma.bearer)
            #expect(read.arrival?.squishCount == 2 && read.arrival?.squishedByMe == true)
            let taken = try await home.family.unsquishArrival(
                .init(profileID: ids), options: home.grandma.bearer)
            #expect(taken.squishCount == 1 && !taken.squishedByMe)
            let mine = try await home.family.getArrival(.init(profileID: ids), options: home.mum.bearer)
            #expect(mine.arrival?.squishCount == 1 && mine.arrival?.squishedByMe == false)
            let squishNotices = try await home.stack.notices(of: home.mum).filter {
                $0.kind == Int(Kindred_Family_V1_NotificationKind.babySquish.rawValue)
            }
            #expect(squishNotices.count == 2)
        }
    }

    @Test func theAnnouncementTopsEveryMembersHome() async throws {
        try await BabyContentFamily.with { home in
            let empty = try await home.family.getHome(.init(), options: home.grandma.bearer)
            #expect(empty.arrivals.isEmpty)
            let announced = try await home.announce()
            for member in [home.mum, home.grandma, home.grandpa] {
                let page = try await home.family.getHome(.init(), options: member.bearer)
                #expect(page.arrivals.map(\.profileID) == [home.profile.description])
                #expect(page.arrivals.first?.name == "Lily")
                #expect(page.activity.first?.kind == .babyArrived)
            }
            let stranger = try await home.family.getHome(.init(), options: home.stranger.bearer)
            #expect(stranger.arrivals.isEmpty)
            home.stack.clock.advance(seconds: 31 * 86_400)
            let later = try await home.family.getHome(.init(), options: home.grandma.bearer)
            #expect(later.arrivals.isEmpty)
            #expect(announced.profileID == home.profile.description)
        }
    }
}

extension RPCError {
    /// The fields a `BadRequest` names.
    fileprivate var badFields: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.field) } else { [] }
        }
    }
}
