import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Squishes on photos: once per person per photo however the calls race, taken back with UnsquishPhoto, the
/// count on the photo, the owners told, and photo.squished / photo.unsquished for gamification.
@Suite struct SquishPhotoTests {
    @Test func concurrentSquishesByOnePersonCountOnce() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let request = Kindred_Family_V1_SquishPhotoRequest(
                profileID: home.profile.description, photoID: photo)
            let counts = try await withThrowingTaskGroup(of: Int32.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await home.family.squishPhoto(request, options: home.grandma.bearer).squishCount
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 1, count: 12))
            #expect(try await home.storedSquishes(of: photo) == 1)
            #expect(try await home.count("photo_squishes") == 1)
            #expect(try await home.activityKinds() == [.photoSquished])
            #expect(try await home.events().map(\.type) == ["photo.squished"])
        }
    }

    @Test func concurrentSquishesByManyPeopleEachCount() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let request = Kindred_Family_V1_SquishPhotoRequest(
                profileID: home.profile.description, photoID: photo)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for member in [home.mum, home.grandma, home.grandpa] {
                    for _ in 0..<4 {
                        group.addTask {
                            _ = try await home.family.squishPhoto(request, options: member.bearer)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await home.storedSquishes(of: photo) == 3)
            #expect(try await home.count("photo_squishes") == 3)
        }
    }

    /// Squishes and take-backs racing on one photo, each taking the photo's lock in the statement that changes
    /// it: the count on the photo stays the number of squishes stored.
    @Test func racingSquishesAndTakeBacksKeepTheCountExact() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let ids = (profile: home.profile.description, photo: photo)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for member in [home.mum, home.grandma, home.grandpa] {
                    for round in 0..<6 {
                        group.addTask {
                            if round.isMultiple(of: 2) {
                                _ = try await home.family.squishPhoto(
                                    .init(profileID: ids.profile, photoID: ids.photo), options: member.bearer)
                            } else {
                                _ = try await home.family.unsquishPhoto(
                                    .init(profileID: ids.profile, photoID: ids.photo), options: member.bearer)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let stored = try await home.count("photo_squishes")
            #expect(try await home.storedSquishes(of: photo) == stored)
            let answer = try await home.family.squishPhoto(
                .init(profileID: ids.profile, photoID: ids.photo), options: home.grandma.bearer)
            #expect(Int(answer.squishCount) == (try await home.count("photo_squishes")))
        }
    }

    @Test func unsquishTakesTheSquishBackOnceAndTellsGamification() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            let ids = (profile: home.profile.description, photo: photo)
            let squish = Kindred_Family_V1_SquishPhotoRequest(profileID: ids.profile, photoID: ids.photo)
            let unsquish = Kindred_Family_V1_UnsquishPhotoRequest(profileID: ids.profile, photoID: ids.photo)
            _ = try await home.family.squishPhoto(squish, options: home.grandma.bearer)
            let second = try await home.family.squishPhoto(squish, options: home.grandpa.bearer)
            #expect(second.squishCount == 2 && second.squishedByMe)
            let taken = try await home.family.unsquishPhoto(unsquish, options: home.grandma.bearer)
            #expect(taken.squishCount == 1 && !taken.squishedByMe)
            // Taking back a squish one does not have changes nothing.
            let again = try await home.family.unsquishPhoto(unsquish, options: home.grandma.bearer)
            #expect(again.squishCount == 1)
            #expect(try await home.storedSquishes(of: photo) == 1)
            let events = try await home.events()
            #expect(events.map(\.type) == ["photo.squished", "photo.squished", "photo.unsquished"])
            guard case .photoUnsquished(let undone) = events[2].event.payload else {
                Issue.record("photo.unsquished carries \(String(describing: events[2].event.payload))")
                return
            }
            #expect(undone.subjectID == photo && undone.actorID == home.grandma.id)
            #expect(undone.profileID == home.profile.description)
        }
    }

    @Test func theOwnersHearOfASquishAndTheSquisherDoesNot() async throws {
        try await BabyContentFamily.with { home in
            try await home.stack.name(home.grandma, display: "Grandma Rose")
            let photo = try await home.photo()
            _ = try await home.family.squishPhoto(
                .init(profileID: home.profile.description, photoID: photo), options: home.grandma.bearer)
            let notices = try await home.stack.notices(of: home.mum)
            #expect(notices.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.babySquish.rawValue)])
            #expect(notices.first?.body == "Grandma Rose squished a photo.")
            #expect(try await home.stack.notices(of: home.grandma).isEmpty)
            #expect(try await home.stack.notices(of: home.grandpa).isEmpty)
        }
    }

    @Test func aPhotoOfAnotherProfileOrNoneIsNotFound() async throws {
        try await BabyContentFamily.with { home in
            let elsewhere = try await home.stack.babyProfile(ownedBy: home.stranger, followers: [])
            let theirs = UUID().uuidString.lowercased()
            try await home.stack.pool.query(
                """
                INSERT INTO family.baby_photos
                    (profile_id, photo_id, uploaded_by, media_type, width, height, byte_count, request_id,
                     created_at)
                VALUES (\(elsewhere)::uuid, \(theirs)::uuid, \(home.stranger.id)::uuid, 'image/png', 1, 1, 1, 'sql',
                        now())
                """)
            for photo in [theirs, UUID().uuidString] {
                let refused = await rpcError {
                    try await home.family.squishPhoto(
                        .init(profileID: home.profile.description, photoID: photo),
                        options: home.grandma.bearer)
                }
                #expect(refused?.code == .notFound && refused?.reason == "PHOTO_NOT_FOUND")
            }
            let malformed = await rpcError {
                try await home.family.squishPhoto(
                    .init(profileID: home.profile.description, photoID: "photo-1"),
                    options: home.grandma.bearer)
            }
            #expect(malformed?.code == .invalidArgument)
        }
    }
}
