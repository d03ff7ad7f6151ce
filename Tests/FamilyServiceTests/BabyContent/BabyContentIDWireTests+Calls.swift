@testable import FamilyService
import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

extension BabyContentIDWireTests {
    /// Each RPC naming a profile and one of its photos, events, items or comments, with `profile` and `id` for
    /// both.
    static func pairCalls(_ home: BabyContentFamily, profile: String, id: String, options: CallOptions)
        async -> [(field: String, answer: RPCError?)]
    {
        let family = home.family
        return [
            (
                "photo_id",
                await rpcError {
                    try await family.getPhoto(.init(profileID: profile, photoID: id), options: options)
                }
            ),
            (
                "photo_id",
                await rpcError {
                    try await family.squishPhoto(.init(profileID: profile, photoID: id), options: options)
                }
            ),
            (
                "photo_id",
                await rpcError {
                    try await family.unsquishPhoto(.init(profileID: profile, photoID: id), options: options)
                }
            ),
            (
                "photo_id",
                await rpcError {
                    for try await _ in family.downloadPhoto(
                        .init(profileID: profile, photoID: id), options: options)
                    {}
                }
            ),
            (
                "photo_id",
                await rpcError {
                    try await family.deletePhoto(.init(profileID: profile, photoID: id), options: options)
                }
            ),
            (
                "photo_id",
                await rpcError {
                    try await family.updatePhotoCaption(
                        .init(profileID: profile, photoID: id, caption: "Asleep"), options: options)
                }
            ),
            (
                "event_id",
                await rpcError {
                    try await family.listRsvps(.init(profileID: profile, eventID: id), options: options)
                }
            ),
            (
                "event_id",
                await rpcError {
                    try await family.getCalendarEvent(
                        .init(profileID: profile, eventID: id), options: options)
                }
            ),
            (
                "event_id",
                await rpcError {
                    try await family.deleteCalendarEvent(
                        .init(profileID: profile, eventID: id), options: options)
                }
            ),
            (
                "item_id",
                await rpcError {
                    try await family.deleteRegistryItem(
                        .init(profileID: profile, itemID: id), options: options)
                }
            ),
            (
                "item_id",
                await rpcError {
                    try await family.purchaseRegistryItem(
                        .init(profileID: profile, itemID: id), options: options)
                }
            ),
            (
                "item_id",
                await rpcError {
                    try await family.undoRegistryPurchase(
                        .init(profileID: profile, itemID: id), options: options)
                }
            ),
            (
                "comment_id",
                await rpcError {
                    try await family.deleteComment(.init(profileID: profile, commentID: id), options: options)
                }
            ),
            (
                "event_id",
                await rpcError {
                    try await family.setRsvp(
                        .init(profileID: profile, eventID: id, answer: .maybe), options: options)
                }
            ),
        ]
    }

    /// Each RPC naming only a profile (the arrival's), with `profile`.
    static func profileCalls(_ home: BabyContentFamily, profile: String, options: CallOptions) async
        -> [RPCError?]
    {
        let family = home.family
        return [
            await rpcError { try await family.getArrival(.init(profileID: profile), options: options) },
            await rpcError { try await family.getArrivalShare(.init(profileID: profile), options: options) },
            await rpcError { try await family.squishArrival(.init(profileID: profile), options: options) },
            await rpcError { try await family.unsquishArrival(.init(profileID: profile), options: options) },
        ]
    }
}
