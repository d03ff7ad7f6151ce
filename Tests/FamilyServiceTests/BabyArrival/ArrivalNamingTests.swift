import Foundation
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// An announcement names the profile and reads its gender in the statement that inserts it: one without a name
/// keeps the profile's, in the notices and the event, and `baby.arrived` carries the profile's gender.
@Suite struct ArrivalNamingTests {
    @Test func anArrivalWithoutANameKeepsTheProfilesNameAndItsEventCarriesTheGender() async throws {
        try await BabyContentFamily.with { home in
            _ = try await home.family.updateBabyProfile(
                .init(
                    updateMask: ["name", "gender"],
                    profile: .init(profileID: home.profile.description, name: "Poppy", gender: .girl)),
                options: home.mum.bearer)
            let announced = try await home.announce(home.arrival(name: ""))
            #expect(announced.name == "Poppy")
            let notices = try await home.stack.notices(of: home.grandma)
            #expect(notices.first?.title == "Poppy" && notices.first?.body == "Poppy has arrived!")
            let events = try await home.events()
            guard case .babyArrived(let arrived) = events.first?.event.payload else {
                Issue.record("baby.arrived carries \(String(describing: events.first?.event.payload))")
                return
            }
            #expect(arrived.name == "Poppy" && arrived.gender == .girl)
        }
    }

    @Test func aSecondAnnouncementRenamesNothing() async throws {
        try await BabyContentFamily.with { home in
            _ = try await home.announce(home.arrival(name: "Lily"))
            let refused = await rpcError { try await home.announce(home.arrival(name: "Rose")) }
            #expect(refused?.reason == "ALREADY_ANNOUNCED")
            let profile = try await home.family.getBabyProfile(
                .init(profileID: home.profile.description), options: home.grandpa.bearer)
            #expect(profile.profile?.name == "Lily")
        }
    }
}
