import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import LoadTestKit

extension VirtualUser {
    /// A baby persona's action on one of its profiles (the iteration picks which). Comments, calendar events and
    /// registry items carry a key in their text, whose arrival on the other members' WatchProfileActivity is
    /// measured. Expected refusals: a registry item another grandparent bought first (ALREADY_PURCHASED), a
    /// registry full after many runs (REGISTRY_FULL). The gallery and the arrival: `performOnGallery`.
    func performOnProfile(
        _ action: Persona.Action, due: ContinuousClock.Instant?, iteration: Int
    ) async {
        guard !profiles.isEmpty else { return }
        let families = shared.seed.families
        let profile = profiles[iteration % profiles.count]
        let profileID = families.profileID(profile)
        let family = Family.Client(clients.family)
        let page = Kindred_Common_V1_PageRequest(pageSize: 20)
        switch action {
        case .getHome:
            await timed(Family.Method.getHome, from: due) { options in
                try await clients.family.read(
                    Family.Method.getHome, Kindred_Family_V1_GetHomeRequest(page: page),
                    answer: Kindred_Family_V1_GetHomeResponse.self, options: options)
            }
        case .listCalendarEvents:
            await timed(Family.Method.listCalendarEvents, from: due) { options in
                try await clients.family.read(
                    Family.Method.listCalendarEvents,
                    Kindred_Family_V1_ListCalendarEventsRequest(profileID: profileID, page: page),
                    answer: Kindred_Family_V1_ListCalendarEventsResponse.self, options: options)
            }
        case .listRegistryItems:
            await timed(Family.Method.listRegistryItems, from: due) { options in
                try await clients.family.read(
                    Family.Method.listRegistryItems,
                    Kindred_Family_V1_ListRegistryItemsRequest(profileID: profileID, page: page),
                    answer: Kindred_Family_V1_ListRegistryItemsResponse.self, options: options)
            }
        case .setRsvp:
            let answers: [Kindred_Family_V1_RsvpAnswer] = [.attending, .maybe, .notAttending]
            await timed(Family.Method.setRsvp, from: due) { options in
                _ = try await family.setRsvp(
                    .init(
                        profileID: profileID,
                        eventID: families.eventID(profile, iteration % BabyFamilies.eventsPerProfile),
                        answer: answers[iteration % answers.count]), options: options)
            }
        case .purchaseRegistryItem:
            await purchaseAndUndo(
                profileID, item: families.itemID(profile, iteration % BabyFamilies.itemsPerProfile), due: due)
        case .addComment, .createCalendarEvent, .createRegistryItem:
            await post(action, on: profile, due: due, iteration: iteration)
        default:
            await performOnGallery(action, profile: profile, due: due, iteration: iteration)
        }
    }

    /// Who must receive a write of `action` on `profile`: every other member on WatchProfileActivity; on
    /// WatchNotifications those its kind notifies (a comment: the owners; anything else measured, the
    /// followers), never the writer.
    func audience(of action: Persona.Action, on profile: Int) -> [(live: LiveStream, recipients: [Int])] {
        let members = shared.seed.families.members(of: profile)
        let notified = action == .addComment ? Array(members.prefix(1)) : Array(members.dropFirst())
        return [
            (shared.activity, members.filter { $0 != index }),
            (shared.notifications, notified.filter { $0 != index }),
        ]
    }

    /// A comment on one of the profile's seeded events, or (owners) a calendar event or registry item, named
    /// by its key, which its `audience` must receive on their settled streams.
    private func post(
        _ action: Persona.Action, on profile: Int, due: ContinuousClock.Instant?, iteration: Int
    ) async {
        let families = shared.seed.families
        let profileID = families.profileID(profile)
        let family = Family.Client(clients.family)
        await measuredWrite(on: audience(of: action, on: profile)) { key in
            let text = Deliveries.text(for: key)
            switch action {
            case .createCalendarEvent:
                let start = Int64(Date().timeIntervalSince1970) + 30 * 86_400
                return await timed(Family.Method.createCalendarEvent, from: due) { options in
                    _ = try await family.createCalendarEvent(
                        .init(
                            requestID: key, profileID: profileID,
                            event: .init(
                                name: text, startTime: Date(timeIntervalSince1970: Double(start)),
                                timeZone: "Europe/London")),
                        options: options)
                }
            case .createRegistryItem:
                return await timed(
                    Family.Method.createRegistryItem, from: due, isExpected: { $0.code == .resourceExhausted }
                ) { options in
                    _ = try await family.createRegistryItem(
                        .init(requestID: key, profileID: profileID, item: .init(name: text)), options: options
                    )
                }
            default:
                let event = families.eventID(profile, iteration % BabyFamilies.eventsPerProfile)
                return await timed(Family.Method.addComment, from: due) { options in
                    _ = try await family.addComment(
                        .init(
                            requestID: key,
                            target: .init(profileID: profileID, target: .calendarEventID(event)),
                            text: text), options: options)
                }
            }
        }
    }

    /// Buys a seeded item, then takes the purchase back, so the registry always has something to buy. Another
    /// grandparent of the profile may have bought it first: ALREADY_PURCHASED, an expected refusal. In the open
    /// loop one user may run this twice at once on one item: both buys succeed (buying again what one bought
    /// returns the item), the first undo frees it, another grandparent may buy it, and the second undo is then
    /// REGISTRY_PURCHASE_NOT_YOURS, as it should be (seen once in 34,067 calls at 500/s).
    private func purchaseAndUndo(
        _ profileID: String, item: String, due: ContinuousClock.Instant?
    ) async {
        let family = Family.Client(clients.family)
        let bought = await timed(
            Family.Method.purchaseRegistryItem, from: due, isExpected: { $0.code == .failedPrecondition }
        ) { options in
            _ = try await family.purchaseRegistryItem(
                .init(profileID: profileID, itemID: item), options: options)
        }
        guard bought else { return }
        await timed(
            Family.Method.undoRegistryPurchase, isExpected: { $0.reason == "REGISTRY_PURCHASE_NOT_YOURS" }
        ) { options in
            _ = try await family.undoRegistryPurchase(
                .init(profileID: profileID, itemID: item), options: options)
        }
    }
}
