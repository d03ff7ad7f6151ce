import Foundation
import KindredMessages
import KindredRPC
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Members read the gallery newest first, page by page; owners caption and delete, a delete taking the row,
/// its comments and the bytes.
@Suite struct GalleryReadsTests {
    @Test func followersListNewestFirstPageByPageAcrossTheirProfiles() async throws {
        try await BabyContentFamily.with { home in
            var uploaded: [String] = []
            for caption in ["one", "two", "three"] {
                uploaded.append(try await home.upload(PhotoFixtures.png, caption: caption).photoID)
                home.stack.clock.advance(seconds: 1)
            }
            let first = try await home.family.listPhotos(
                .init(profileID: home.profile.description, page: .init(pageSize: 2)),
                options: home.grandma.bearer)
            #expect(first.photos.map(\.photoID) == [uploaded[2], uploaded[1]])
            let second = try await home.family.listPhotos(
                .init(
                    profileID: home.profile.description,
                    page: .init(pageSize: 2, pageToken: first.page!.nextPageToken)),
                options: home.grandma.bearer)
            #expect(second.photos.map(\.photoID) == [uploaded[0]] && second.page?.nextPageToken ?? "" == "")
            let everyProfile = try await home.family.listPhotos(.init(), options: home.grandma.bearer)
            #expect(everyProfile.photos.map(\.caption) == ["three", "two", "one"])
            let strangers = try await home.family.listPhotos(.init(), options: home.stranger.bearer)
            #expect(strangers.photos.isEmpty)
        }
    }

    @Test func ownersCaptionAPhotoAndFollowersMayNot() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(PhotoFixtures.png, caption: "Nap")
            let request = Kindred_Family_V1_UpdatePhotoCaptionRequest(
                profileID: home.profile.description, photoID: photo.photoID, caption: "  Long nap  ")
            let updated = try await home.family.updatePhotoCaption(request, options: home.mum.bearer).photo
            #expect(updated?.caption == "Long nap")
            let refused = await #expect(throws: RPCError.self) {
                _ = try await home.family.updatePhotoCaption(request, options: home.grandma.bearer)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            let tooLong = await #expect(throws: RPCError.self) {
                var long = request
                long.caption = String(repeating: "a", count: BabyGallery.captionLimit + 1)
                _ = try await home.family.updatePhotoCaption(long, options: home.mum.bearer)
            }
            #expect(tooLong?.code == .invalidArgument)
        }
    }

    @Test func deletingAPhotoRemovesItsRowItsCommentsAndItsBytes() async throws {
        try await BabyContentFamily.with { home in
            let photo = try await home.upload(PhotoFixtures.png)
            // By SQL: AddComment's photo target is the arrival helper's, built beside this.
            try await home.stack.pool.query(
                """
                INSERT INTO family.baby_comments
                    (profile_id, comment_id, target_kind, target_id, author_id, body, request_id, created_at)
                VALUES (\(home.profile)::uuid, gen_random_uuid(), 2, \(photo.photoID)::uuid, \(home.grandma.id)::uuid,
                    'Lovely', 'c', now())
                """)
            let ids = Kindred_Family_V1_DeletePhotoRequest(
                profileID: home.profile.description, photoID: photo.photoID)
            let refused = await #expect(throws: RPCError.self) {
                _ = try await home.family.deletePhoto(ids, options: home.grandma.bearer)
            }
            #expect(refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            _ = try await home.family.deletePhoto(ids, options: home.mum.bearer)
            let rows = try await home.count("baby_photos")
            let comments = try await home.count("baby_comments")
            #expect(rows == 0 && comments == 0 && home.storedFiles() == [])
            let gone = await #expect(throws: RPCError.self) {
                _ = try await home.download(photo.photoID, as: home.grandma)
            }
            #expect(gone?.code == .notFound && gone?.reason == "PHOTO_NOT_FOUND")
        }
    }
}
