@testable import FamilyService
import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The ids of the baby content's RPCs that took them as text into their rules (the arrival's, the gallery's, the
/// calendar's and its RSVPs', the registry's and the comments'), now parsed once by their handlers after the
/// token: any case of a UUID names the thing, anything else is INVALID_ARGUMENT naming the field with the
/// request's other bad fields, without a token it is UNAUTHENTICATED whatever the id, and a stranger hears of a
/// real profile's things what anyone hears of an unknown profile's.
@Suite struct BabyContentIDWireTests {
    @Test func aProfilesPhotoEventAndItemIdsAreParsedTogetherAtTheEdge() async throws {
        try await BabyContentFamily.with { home in
            for (field, answer) in await Self.pairCalls(
                home, profile: "lily", id: "42", options: home.mum.bearer)
            {
                #expect(answer?.code == .invalidArgument && answer?.badFields == ["profile_id", field])
            }
            let anonymous = await Self.pairCalls(
                home, profile: "lily", id: "42", options: FamilyTestStack.bearer(nil))
            #expect(anonymous.allSatisfy { $0.answer?.code == .unauthenticated })
            let profileOnly = await Self.profileCalls(home, profile: "lily", options: home.mum.bearer)
            #expect(
                profileOnly.allSatisfy { $0?.code == .invalidArgument && $0?.badFields == ["profile_id"] })
            let anonymousProfileOnly = await Self.profileCalls(
                home, profile: "lily", options: FamilyTestStack.bearer(nil))
            #expect(
                anonymousProfileOnly.allSatisfy { $0?.code == .unauthenticated }, "the token before the id")
            let unanswered = await rpcError {
                try await home.family.setRsvp(
                    .init(profileID: "lily", eventID: "42"), options: home.grandma.bearer)
            }
            #expect(unanswered?.badFields == ["profile_id", "event_id", "answer"])
            let overlong = await rpcError {
                try await home.family.updatePhotoCaption(
                    .init(profileID: "lily", photoID: "42", caption: String(repeating: "z", count: 2_001)),
                    options: home.mum.bearer)
            }
            #expect(overlong?.badFields == ["profile_id", "photo_id", "caption"])
            let comment = Kindred_Family_V1_AddCommentRequest(
                requestID: "c-1", target: .init(profileID: "lily", target: .photoID("42")), text: " ")
            let uncommented = await rpcError {
                try await home.family.addComment(comment, options: home.mum.bearer)
            }
            #expect(uncommented?.badFields == ["target.profile_id", "target.photo_id", "text"])
            let anonymousComment = await rpcError {
                try await home.family.addComment(comment, options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymousComment?.code == .unauthenticated)
            let listing = Kindred_Family_V1_ListCommentsRequest(
                target: comment.target, page: .init(pageToken: "garbage!"))
            let unlisted = await rpcError {
                try await home.family.listComments(listing, options: home.mum.bearer)
            }
            #expect(unlisted?.badFields == ["target.profile_id", "target.photo_id", "page.page_token"])
            let anonymousListing = await rpcError {
                try await home.family.listComments(listing, options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymousListing?.code == .unauthenticated)
            for (options, anonymous) in [(home.mum.bearer, false), (FamilyTestStack.bearer(nil), true)] {
                let garbage = Kindred_Common_V1_PageRequest(pageToken: "garbage!")
                let lists = [
                    await rpcError {
                        try await home.family.listPhotos(
                            .init(profileID: "lily", page: garbage), options: options)
                    },
                    await rpcError {
                        try await home.family.listRegistryItems(
                            .init(profileID: "lily", page: garbage), options: options)
                    },
                    await rpcError {
                        try await home.family.listCalendarEvents(
                            .init(profileID: "lily", page: garbage), options: options)
                    },
                ]
                for refused in lists {
                    if anonymous {
                        #expect(refused?.code == .unauthenticated)
                    } else {
                        #expect(refused?.badFields == ["profile_id", "page.page_token"])
                    }
                }
            }
            let registry = [
                await rpcError {
                    try await home.family.createRegistryItem(
                        .init(requestID: "r-1", profileID: "lily", item: .init()), options: home.mum.bearer)
                },
                await rpcError {
                    try await home.family.updateRegistryItem(
                        .init(profileID: "lily", itemID: "42", updateMask: ["colour"]),
                        options: home.mum.bearer)
                },
            ]
            #expect(registry[0]?.badFields == ["profile_id", "item.name"])
            #expect(registry[1]?.badFields == ["profile_id", "item_id", "update_mask"])

            // A stranger hears of a real profile's things exactly what anyone hears of an unknown profile's.
            let photo = try await home.photo()
            let event = try await home.createEvent()
            let item = try await home.createItem()
            let (profile, unknown) = (home.profile.description.uppercased(), UUIDv7.generate(at: Date()))
            for id in [photo, event.eventID, item.itemID] {
                let hidden = await Self.pairCalls(
                    home, profile: profile, id: id.uppercased(), options: home.stranger.bearer)
                let missing = await Self.pairCalls(
                    home, profile: unknown, id: id, options: home.stranger.bearer)
                for (seen, absent) in zip(hidden, missing) {
                    #expect(seen.answer?.code == .notFound)
                    #expect(
                        seen.answer?.reason == absent.answer?.reason
                            && seen.answer?.message == absent.answer?.message)
                }
            }
            let read = try await home.family.getPhoto(
                .init(profileID: profile, photoID: photo.uppercased()), options: home.grandma.bearer)
            #expect(read.photo?.photoID == photo)
            let shown = try await home.family.getCalendarEvent(
                .init(profileID: profile, eventID: event.eventID.uppercased()), options: home.grandma.bearer)
            #expect(shown.event?.eventID == event.eventID)
            let bought = try await home.family.purchaseRegistryItem(
                .init(profileID: profile, itemID: item.itemID.uppercased()), options: home.grandma.bearer)
            #expect(bought.item?.itemID == item.itemID)
        }
    }

    @Test func anArrivalsProfileIdIsNamedWithItsOtherBadFields() async throws {
        try await BabyContentFamily.with { home in
            var undated = home.arrival()
            undated.birthDate = nil
            let refusals = [
                await rpcError {
                    try await home.family.announceArrival(
                        .init(profileID: "lily", arrival: undated), options: home.mum.bearer)
                },
                await rpcError {
                    try await home.family.updateArrival(
                        .init(profileID: "lily", arrival: undated), options: home.mum.bearer)
                },
            ]
            for refused in refusals {
                #expect(refused?.code == .invalidArgument)
                #expect(Set(refused?.badFields ?? []) == ["profile_id", "arrival.birth_date"])
            }
            let anonymous = await rpcError {
                try await home.family.announceArrival(
                    .init(profileID: "lily", arrival: undated), options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)

            let byStranger = await rpcError {
                try await home.family.announceArrival(
                    .init(profileID: home.profile.description.uppercased(), arrival: home.arrival()),
                    options: home.stranger.bearer)
            }
            let unknown = await rpcError {
                try await home.family.announceArrival(
                    .init(profileID: UUIDv7.generate(at: Date()), arrival: home.arrival()),
                    options: home.stranger.bearer)
            }
            #expect(byStranger?.code == .notFound && byStranger?.reason == unknown?.reason)
            #expect(byStranger?.message == unknown?.message)
            let announced = try await home.family.announceArrival(
                .init(profileID: home.profile.description.uppercased(), arrival: home.arrival()),
                options: home.mum.bearer)
            #expect(announced.arrival?.name == "Lily")
        }
    }
}
