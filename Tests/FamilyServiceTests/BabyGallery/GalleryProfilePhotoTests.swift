import Foundation
import KindredMessages
import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// The profile photo of a baby profile is one of its gallery's photos, and stops being it when deleted.
@Suite struct GalleryProfilePhotoTests {
    func setProfilePhoto(_ home: BabyContentFamily, _ photo: String) async throws
        -> Kindred_Family_V1_BabyProfile?
    {
        try await home.family.updateBabyProfile(
            .init(
                updateMask: ["profile_photo_id"],
                profile: .init(profileID: home.profile.description, profilePhotoID: photo)),
            options: home.mum.bearer
        ).profile
    }

    @Test func theProfilePhotoIsAPhotoOfTheGalleryAndADeleteClearsIt() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(PhotoFixtures.png)
            #expect(try await setProfilePhoto(home, photo.photoID)?.profilePhotoID == photo.photoID)
            _ = try await home.family.deletePhoto(
                .init(profileID: home.profile.description, photoID: photo.photoID), options: home.mum.bearer)
            let profile = try await home.family.getBabyProfile(
                .init(profileID: home.profile.description), options: home.grandma.bearer
            ).profile
            #expect(profile?.profilePhotoID == "")
        }
    }

    @Test func aPhotoOfAnotherProfileOrNoneIsRefused() async throws {
        try await BabyContentFamily.with { home in
            let mine = try await home.upload(PhotoFixtures.png)
            _ = try await setProfilePhoto(home, mine.photoID)
            let other = try await home.stack.babyProfile(ownedBy: home.mum)
            let elsewhere = try await home.family.uploadPhoto(options: home.mum.bearer) { writer in
                try await writer.write(
                    .init(part: .metadata(.init(requestID: "o", profileID: other.description))))
                try await writer.write(.init(part: .chunk(PhotoFixtures.png)))
            }.photo!
            for photo in [elsewhere.photoID, PhotoID(UUID()).description] {
                let refused = await #expect(throws: RPCError.self) {
                    _ = try await setProfilePhoto(home, photo)
                }
                #expect(
                    refused?.code == .invalidArgument && refused?.badFields == ["profile.profile_photo_id"])
            }
            let profile = try await home.family.getBabyProfile(
                .init(profileID: home.profile.description), options: home.mum.bearer
            ).profile
            #expect(profile?.profilePhotoID == mine.photoID)
        }
    }
}
