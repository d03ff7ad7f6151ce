import Foundation
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// `ListRegistryItems` over every profile of the caller: each profile's items are read a page at a time and
/// merged, so pages must cut across profiles in the list's order (unbought first, then bought, each by id).
@Suite struct RegistryListingTests {
    @Test func pagesOverTwoProfilesKeepUnboughtFirstThenBoughtByID() async throws {
        try await BabyContentFamily.with { home in
            let other = try await home.stack.babyProfile(ownedBy: home.grandpa, followers: [home.grandma])
            var bought: [String] = []
            var unbought: [String] = []
            for index in 0..<6 {
                home.stack.clock.advance(seconds: 1)
                let (profile, owner) = index % 2 == 0 ? (home.profile, home.mum) : (other, home.grandpa)
                let item = try await home.family.createRegistryItem(
                    .init(
                        requestID: "item-\(index)", profileID: profile.description,
                        item: .init(name: "Item \(index)", linkURL: "https://shop.example.com/\(index)")),
                    options: owner.bearer
                ).item!
                guard index % 3 != 0 else {
                    unbought.append(item.name)
                    continue
                }
                _ = try await home.family.purchaseRegistryItem(
                    .init(profileID: profile.description, itemID: item.itemID), options: home.grandma.bearer)
                bought.append(item.name)
            }
            for size: Int32 in [1, 2, 4] {
                var names: [String] = []
                var token = ""
                repeat {
                    let page = try await home.family.listRegistryItems(
                        .init(page: .init(pageSize: size, pageToken: token)), options: home.grandma.bearer)
                    #expect(page.items.count <= Int(size))
                    names += page.items.map(\.name)
                    token = page.page?.nextPageToken ?? ""
                } while !token.isEmpty
                #expect(names == unbought + bought, "pages of \(size)")
            }
            let onlyOther = try await home.family.listRegistryItems(
                .init(profileID: other.description), options: home.grandma.bearer)
            #expect(onlyOther.items.map(\.name) == ["Item 3", "Item 1", "Item 5"])
        }
    }
}
