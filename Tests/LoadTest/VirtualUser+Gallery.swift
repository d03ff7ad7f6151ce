import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit

/// The gallery and the arrival on a baby profile. An owner uploads a small photo now and then (its caption
/// carries a key, measured on every other member's WatchProfileActivity and on the followers'
/// WatchNotifications, whose notice quotes it) and announces the arrival, naming the baby with a key (the
/// activity's detail and the followers' notice carry the name); a second announcement is refused
/// (FAILED_PRECONDITION `ALREADY_ANNOUNCED`), as a full gallery is (RESOURCE_EXHAUSTED `GALLERY_FULL`). Members
/// list the gallery and download a photo as an app shows its thumbnails, squish a photo or the announcement
/// and take it back (so the next squish is a new one), and read the announcement, which is NOT_FOUND
/// `ARRIVAL_NOT_FOUND` until an owner announced it. Squishes carry no text, so their notices are not measured.
extension VirtualUser {
    func performOnGallery(
        _ action: Persona.Action, profile: Int, due: ContinuousClock.Instant?, iteration: Int
    ) async {
        let profileID = shared.seed.families.profileID(profile)
        let family = Family.Client(clients.family)
        switch action {
        case .uploadPhoto:
            await uploadPhoto(on: profile, due: due)
        case .announceArrival:
            await announceArrival(on: profile, due: due)
        case .viewArrival:
            await timed(Family.Method.getArrival, from: due, isExpected: Self.notAnnouncedYet) { options in
                _ = try await family.getArrival(.init(profileID: profileID), options: options)
            }
        case .squishArrival:
            let squished = await timed(
                Family.Method.squishArrival, from: due, isExpected: Self.notAnnouncedYet
            ) { options in
                _ = try await family.squishArrival(.init(profileID: profileID), options: options)
            }
            guard squished else { return }
            await timed(Family.Method.unsquishArrival) { options in
                _ = try await family.unsquishArrival(.init(profileID: profileID), options: options)
            }
        default:
            guard let photo = await listPhotos(profileID, due: due, pick: iteration) else {
                return
            }
            if action == .squishPhoto {
                await squishAndTakeBack(photo, of: profileID)
            } else {
                await timed(Family.Method.downloadPhoto) { options in
                    for try await _ in family.downloadPhoto(
                        .init(profileID: profileID, photoID: photo), options: options)
                    {}
                }
            }
        }
    }

    /// The gallery's first page, newest first, and one of its photos (nil while it is empty).
    private func listPhotos(
        _ profileID: String, due: ContinuousClock.Instant?, pick: Int
    )
        async -> String?
    {
        var photos: [Kindred_Family_V1_BabyPhoto] = []
        await timed(Family.Method.listPhotos, from: due) { options in
            photos = try await Family.Client(clients.family).listPhotos(
                .init(profileID: profileID, page: .init(pageSize: 20)), options: options
            ).photos
        }
        return photos.isEmpty ? nil : photos[pick % photos.count].photoID
    }

    private func squishAndTakeBack(_ photo: String, of profileID: String) async {
        let family = Family.Client(clients.family)
        let squished = await timed(Family.Method.squishPhoto) { options in
            _ = try await family.squishPhoto(.init(profileID: profileID, photoID: photo), options: options)
        }
        guard squished else { return }
        await timed(Family.Method.unsquishPhoto) { options in
            _ = try await family.unsquishPhoto(.init(profileID: profileID, photoID: photo), options: options)
        }
    }

    private func uploadPhoto(on profile: Int, due: ContinuousClock.Instant?) async {
        let profileID = shared.seed.families.profileID(profile)
        await measuredWrite(on: audience(of: .uploadPhoto, on: profile)) { key in
            let metadata = Kindred_Family_V1_UploadPhotoMetadata(
                requestID: key, profileID: profileID, caption: Deliveries.text(for: key), fileName: "baby.png"
            )
            return await timed(
                Family.Method.uploadPhoto, from: due, isExpected: { $0.reason == "GALLERY_FULL" }
            ) { options in
                _ = try await Family.Client(clients.family).uploadPhoto(options: options) { writer in
                    try await writer.write(.init(part: .metadata(metadata)))
                    try await writer.write(.init(part: .chunk(SamplePhoto.png)))
                }
            }
        }
    }

    /// Announced yesterday (a birth date must not be later than today anywhere), named with the key.
    private func announceArrival(on profile: Int, due: ContinuousClock.Instant?) async {
        let profileID = shared.seed.families.profileID(profile)
        let yesterday = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: Date() - 86_400)
        let birthDate = DateComponents(
            year: yesterday.year!, month: yesterday.month!, day: yesterday.day!)
        await measuredWrite(on: audience(of: .announceArrival, on: profile)) { key in
            await timed(
                Family.Method.announceArrival, from: due, isExpected: { $0.reason == "ALREADY_ANNOUNCED" }
            ) { options in
                _ = try await Family.Client(clients.family).announceArrival(
                    .init(
                        profileID: profileID,
                        arrival: .init(
                            name: Deliveries.text(for: key), birthDate: birthDate, weightGrams: 3_400,
                            lengthMm: 510)),
                    options: options)
            }
        }
    }

    private static func notAnnouncedYet(_ error: RPCError) -> Bool { error.reason == "ARRIVAL_NOT_FOUND" }
}

extension RPCError {
    /// The `ErrorInfo` reason the server gave, which tells an expected refusal from a failure with its code.
    var reason: String? {
        for case .errorInfo(let reason, _, _) in details { return reason }
        return nil
    }
}

/// The photo an owner uploads: a 64 × 64 PNG of a soft gradient (330 bytes), built with zlib for this tool;
/// small, as the issue asks of uploads in the mix.
enum SamplePhoto {
    static let png = [UInt8](
        Data(
            base64Encoded: """
                iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAABEUlEQVR42tXC5yoAAABG0e/BJUmSJEmSJEmSvfee195775EkSfLL\
                c9zTyR/t6vmlQz0/dKrnmy71fNGtnk961PNBr3re6VPPG/3qeWFAPU8MqueBIfXcMayeG0bUc8Woei4YU88Z4+o5YUI9R0yq54Ap\
                9ewxrZ4dZtSzxax6NphTzxrz6oEF9SyzqJ5FltQzz7J6ZllRzzSoZ5JV9Yyzpp5R1tUzzIZ6BtlUTz9b6ullWz3d7Kink131tLOn\
                njb21dPKgXpaOFRPM0fqaeJYPY2cqKeBU/XUc6aeOs7VU8uFemq4VE81V+qp4lo9ldyop4Jb9ZRzp54y7tVTyoN6SnhUTzFP6ini\
                WT2FvKingFf1f46vyh3qPD6gAAAAAElFTkSuQmCC
                """)!)
}
