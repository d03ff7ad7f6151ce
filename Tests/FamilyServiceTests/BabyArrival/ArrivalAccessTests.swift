import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Who may do what with squishes and the announcement: a stranger gets what an unknown profile gets on every
/// RPC, and followers are refused the owners' actions.
@Suite struct ArrivalAccessTests {
    /// Every squish and arrival RPC on `profile`'s photo `photo`, as `user`, by name.
    private func calls(_ home: BabyContentFamily, as user: TestUser, profile: String, photo: String)
        -> [(String, @Sendable () async throws -> Void)]
    {
        let family = home.family
        let bearer = user.bearer
        let arrival = home.arrival()
        return [
            (
                "SquishPhoto",
                {
                    _ = try await family.squishPhoto(
                        .init(profileID: profile, photoID: photo), options: bearer)
                }
            ),
            (
                "UnsquishPhoto",
                {
                    _ = try await family.unsquishPhoto(
                        .init(profileID: profile, photoID: photo), options: bearer)
                }
            ),
            (
                "AnnounceArrival",
                {
                    _ = try await family.announceArrival(
                        .init(profileID: profile, arrival: arrival), options: bearer)
                }
            ),
            (
                "UpdateArrival",
                {
                    _ = try await family.updateArrival(
                        .init(profileID: profile, arrival: arrival), options: bearer)
                }
            ),
            ("GetArrival", { _ = try await family.getArrival(.init(profileID: profile), options: bearer) }),
            (
                "SquishArrival",
                { _ = try await family.squishArrival(.init(profileID: profile), options: bearer) }
            ),
            (
                "UnsquishArrival",
                { _ = try await family.unsquishArrival(.init(profileID: profile), options: bearer) }
            ),
            (
                "GetArrivalShare",
                { _ = try await family.getArrivalShare(.init(profileID: profile), options: bearer) }
            ),
            (
                "AddComment on a photo",
                {
                    _ = try await family.addComment(
                        .init(
                            requestID: UUID().uuidString,
                            target: .init(profileID: profile, target: .photoID(photo)), text: "Hi"),
                        options: bearer)
                }
            ),
            (
                "AddComment on the announcement",
                {
                    _ = try await family.addComment(
                        .init(
                            requestID: UUID().uuidString,
                            target: .init(profileID: profile, target: .announcement(true)), text: "Hi"),
                        options: bearer)
                }
            ),
            (
                "ListComments of a photo",
                {
                    _ = try await family.listComments(
                        .init(target: .init(profileID: profile, target: .photoID(photo))), options: bearer)
                }
            ),
        ]
    }

    @Test func aStrangerGetsWhatAnUnknownProfileGetsOnEveryRPC() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.photo()
            try await home.announce(home.arrival(photo: photo))
            _ = try await home.family.squishPhoto(
                .init(profileID: home.profile.description, photoID: photo), options: home.grandma.bearer)
            let before = try await home.activityKinds()
            let unknown = BabyProfileID.generate(at: home.stack.clock.now).description
            let stranger = calls(home, as: home.stranger, profile: home.profile.description, photo: photo)
            let nobody = calls(home, as: home.stranger, profile: unknown, photo: photo)
            for ((name, call), (_, unknownCall)) in zip(stranger, nobody) {
                let refused = await rpcError(call)
                let forUnknown = await rpcError(unknownCall)
                #expect(refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND", "\(name)")
                #expect(
                    refused?.message == forUnknown?.message && refused?.details == forUnknown?.details,
                    "\(name)")
            }
            #expect(try await home.activityKinds() == before)
            #expect(try await home.storedSquishes(of: photo) == 1)
            let home2 = try await home.family.getHome(.init(), options: home.stranger.bearer)
            #expect(home2.arrivals.isEmpty)
        }
    }

    @Test func followersAreRefusedTheOwnersActions() async throws {
        try await BabyContentFamily.with { home in
            let ids = home.profile.description
            let refusedAnnounce = await rpcError {
                try await home.family.announceArrival(
                    .init(profileID: ids, arrival: home.arrival()), options: home.grandma.bearer)
            }
            try await home.announce()
            let refusedUpdate = await rpcError {
                try await home.family.updateArrival(
                    .init(profileID: ids, arrival: home.arrival(name: "Grandma's pick")),
                    options: home.grandma.bearer)
            }
            let refusedShare = await rpcError {
                try await home.family.getArrivalShare(.init(profileID: ids), options: home.grandpa.bearer)
            }
            for refused in [refusedAnnounce, refusedUpdate, refusedShare] {
                #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            }
            let read = try await home.family.getArrival(.init(profileID: ids), options: home.grandma.bearer)
            #expect(read.arrival?.name == "Lily")
        }
    }

    @Test func ownersGetTheShareTextAndThePhotoToDownload() async throws {
        try await BabyContentFamily.with { home in
            let ids = home.profile.description
            let before = await rpcError {
                try await home.family.getArrivalShare(.init(profileID: ids), options: home.mum.bearer)
            }
            #expect(before?.code == .notFound && before?.reason == "ARRIVAL_NOT_FOUND")
            let photo = try await home.photo("image/png")
            var arrival = home.arrival(photo: photo)
            arrival.birthDate = DateComponents(year: 2020, month: 5, day: 3)
            try await home.announce(arrival)
            let share = try await home.family.getArrivalShare(.init(profileID: ids), options: home.mum.bearer)
            #expect(
                share.text == "Welcome to the world, Lily! Born on 3 May 2020 at 14:05, 3.45 kg, 51 cm.\n\n"
                    + "Mother and baby are doing well.")
            #expect(share.profileID == ids && share.photoID == photo && share.photoMediaType == "image/png")
            var plain = arrival
            (plain.name, plain.birthTime, plain.photoID) = ("", nil, "")
            (plain.weightGrams, plain.lengthMm, plain.message) = (0, 0, "")
            _ = try await home.family.updateArrival(
                .init(profileID: ids, arrival: plain), options: home.mum.bearer)
            let bare = try await home.family.getArrivalShare(.init(profileID: ids), options: home.mum.bearer)
            #expect(bare.text == "Welcome to the world, Lily! Born on 3 May 2020.")
            #expect(bare.photoID.isEmpty && bare.profileID.isEmpty && bare.photoMediaType.isEmpty)
        }
    }

    @Test func membersCommentOnAPhotoAndOnTheAnnouncement() async throws {
        try await BabyContentFamily.with { home in
            let ids = home.profile.description
            let photo = try await home.photo()
            let onAnnouncement = Kindred_Family_V1_CommentTarget(profileID: ids, target: .announcement(true))
            let early = await rpcError {
                try await home.family.addComment(
                    .init(requestID: "early", target: onAnnouncement, text: "Is she here?"),
                    options: home.grandma.bearer)
            }
            #expect(early?.code == .notFound && early?.reason == "COMMENT_TARGET_NOT_FOUND")
            try await home.announce()
            let onPhoto = Kindred_Family_V1_CommentTarget(profileID: ids, target: .photoID(photo))
            _ = try await home.family.addComment(
                .init(requestID: "p1", target: onPhoto, text: "Those cheeks!"), options: home.grandma.bearer)
            _ = try await home.family.addComment(
                .init(requestID: "a1", target: onAnnouncement, text: "Welcome, Lily!"),
                options: home.grandpa.bearer)
            let photoComments = try await home.family.listComments(
                .init(target: onPhoto), options: home.mum.bearer)
            #expect(photoComments.comments.map(\.text) == ["Those cheeks!"])
            let arrivalComments = try await home.family.listComments(
                .init(target: onAnnouncement), options: home.grandma.bearer)
            #expect(arrivalComments.comments.map(\.text) == ["Welcome, Lily!"])
            let unknownPhoto = await rpcError {
                try await home.family.addComment(
                    .init(
                        requestID: "p2", target: .init(profileID: ids, target: .photoID(UUID().uuidString)),
                        text: "?"),
                    options: home.grandma.bearer)
            }
            #expect(unknownPhoto?.code == .notFound && unknownPhoto?.reason == "COMMENT_TARGET_NOT_FOUND")
        }
    }
}
