import Foundation
import KindredMessages
import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A stranger to a profile learns nothing of its gallery: every gallery RPC answers what an unknown profile
/// gets, and nothing changes, on disk or in the database.
@Suite struct GalleryStrangerTests {
    /// Every gallery RPC, as `user` would call it on `photo` of `profile`.
    private func calls(_ home: BabyContentFamily, as user: TestUser, profile: String, photo: String)
        -> [(String, () async throws -> Void)]
    {
        let (family, options) = (home.family, user.bearer)
        return [
            (
                "UploadPhoto",
                {
                    _ = try await family.uploadPhoto(options: options) { writer in
                        try await writer.write(
                            .init(part: .metadata(.init(requestID: "s", profileID: profile, caption: "Mine")))
                        )
                        try await writer.write(.init(part: .chunk(PhotoFixtures.png)))
                    }
                }
            ),
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
            ("ListPhotos", { _ = try await family.listPhotos(.init(profileID: profile), options: options) }),
            (
                "UpdatePhotoCaption",
                {
                    _ = try await family.updatePhotoCaption(
                        .init(profileID: profile, photoID: photo, caption: "Mine"), options: options)
                }
            ),
            (
                "DeletePhoto",
                {
                    _ = try await family.deletePhoto(
                        .init(profileID: profile, photoID: photo), options: options)
                }
            ),
        ]
    }

    @Test func aStrangerGetsTheAnswerOfAnUnknownProfileOnEveryGalleryRPCAndChangesNothing() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(PhotoFixtures.png, caption: "Ours")
            let unknown = BabyProfileID(UUID()).description
            let strangers = calls(
                home, as: home.stranger, profile: home.profile.description, photo: photo.photoID)
            let unknowns = calls(home, as: home.mum, profile: unknown, photo: photo.photoID)
            for ((name, strangerCall), (_, unknownCall)) in zip(strangers, unknowns) {
                let refused = await #expect(throws: RPCError.self, "\(name)") { try await strangerCall() }
                let nobodys = await #expect(throws: RPCError.self, "\(name)") { try await unknownCall() }
                #expect(refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND", "\(name)")
                #expect(refused?.code == nobodys?.code && refused?.message == nobodys?.message, "\(name)")
                #expect(refused?.reason == nobodys?.reason, "\(name)")
            }
            let rows = try await home.count("baby_photos")
            #expect(rows == 1 && home.storedFiles() == [photo.photoID])
            let unchanged = try await home.family.getPhoto(
                .init(profileID: home.profile.description, photoID: photo.photoID), options: home.mum.bearer)
            #expect(unchanged.photo == photo)
        }
    }

    @Test func aPhotoOfAnotherProfileIsNotFoundOnThisOne() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(PhotoFixtures.png)
            let other = try await home.stack.babyProfile(ownedBy: home.mum, followers: [])
            for (name, call) in calls(home, as: home.mum, profile: other.description, photo: photo.photoID)
            where name != "UploadPhoto" && name != "ListPhotos" {
                let refused = await #expect(throws: RPCError.self, "\(name)") { try await call() }
                #expect(refused?.code == .notFound && refused?.reason == "PHOTO_NOT_FOUND", "\(name)")
            }
        }
    }
}
