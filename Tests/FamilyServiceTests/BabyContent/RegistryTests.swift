import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

@Suite struct RegistryTests {
    /// Writes `count` items straight to the table, as if mum had added them.
    private func seed(_ count: Int, in home: BabyContentFamily) async throws {
        try await home.stack.pool.query(
            """
            INSERT INTO family.registry_items (profile_id, item_id, name, created_by, request_id, created_at, updated_at)
            SELECT \(home.profile)::uuid, gen_random_uuid(), 'Seeded ' || n, \(home.mum.id)::uuid, 'seed-' || n, now(),
                now()
            FROM generate_series(1, \(count)) n
            """)
    }

    @Test func theFiveHundredAndFirstItemIsRefused() async throws {
        try await BabyContentFamily.with { home in
            try await seed(499, in: home)
            let last = try await home.createItem("The 500th")
            #expect(last.name == "The 500th")
            let refused = await rpcError { try await home.createItem("One too many") }
            #expect(refused?.code == .resourceExhausted && refused?.reason == "REGISTRY_FULL")
            #expect(try await home.count("registry_items") == 500)
            // A retry of a create that landed is still answered once the registry is full.
            let request = Kindred_Family_V1_CreateRegistryItemRequest(
                requestID: "seed-1", profileID: home.profile.description, item: .init(name: "Seeded 1"))
            #expect(
                try await home.family.createRegistryItem(request, options: home.mum.bearer).item?.name
                    == "Seeded 1")
        }
    }

    @Test func aDeletedItemFreesItsPlaceWhoeverDeletesIt() async throws {
        try await BabyContentFamily.with { home in
            try await seed(499, in: home)
            let last = try await home.createItem("The 500th")
            #expect(await rpcError { try await home.createItem("One too many") }?.reason == "REGISTRY_FULL")
            _ = try await home.family.deleteRegistryItem(
                .init(profileID: home.profile.description, itemID: last.itemID), options: home.mum.bearer)
            #expect(try await home.createItem("In its place").name == "In its place")
            #expect(await rpcError { try await home.createItem("Still too many") }?.reason == "REGISTRY_FULL")
            // Rows deleted outside the service (an operator's cleanup) free their places too.
            try await home.stack.pool.query(
                """
                DELETE FROM family.registry_items
                WHERE profile_id = \(home.profile)::uuid AND request_id LIKE 'seed-4%'
                """)
            #expect(try await home.count("registry_items") == 389)
            #expect(try await home.createItem("Room again").name == "Room again")
        }
    }

    @Test func concurrentCreatesAtTheLimitFillItExactly() async throws {
        try await BabyContentFamily.with { home in
            try await seed(492, in: home)
            let answers = await withTaskGroup(of: RPCError?.self) { group in
                for number in 0..<16 {
                    group.addTask { await rpcError { try await home.createItem("Racer \(number)") } }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0 == nil }.count == 8)
            #expect(answers.compactMap { $0?.reason } == Array(repeating: "REGISTRY_FULL", count: 8))
            #expect(try await home.count("registry_items") == 500)
        }
    }

    @Test func tenFollowersRacingToBuyOneItemMakeExactlyOnePurchase() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 32)
            var followers: [TestUser] = []
            for number in 0..<10 {
                let aunt = try await stack.register("aunt\(number)", age: 40)
                _ = try await stack.family.updateProfile(
                    .init(updateMask: ["display_name"], profile: .init(displayName: "Aunt \(number)")),
                    options: aunt.bearer)
                followers.append(aunt)
            }
            let profile = try await stack.babyProfile(ownedBy: mum, followers: followers)
            let item = try await stack.family.createRegistryItem(
                .init(requestID: "cot", profileID: profile.description, item: .init(name: "Cot")),
                options: mum.bearer
            ).item!
            let answers = await withTaskGroup(of: (TestUser, RPCError?).self) { group in
                for follower in followers {
                    group.addTask {
                        let error = await rpcError {
                            try await stack.family.purchaseRegistryItem(
                                .init(profileID: profile.description, itemID: item.itemID),
                                options: follower.bearer)
                        }
                        return (follower, error)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = answers.filter { $0.1 == nil }.map(\.0.id)
            #expect(winners.count == 1)
            let winner = try #require(winners.first)
            for (_, error) in answers where error != nil {
                #expect(error?.code == .failedPrecondition && error?.reason == "ALREADY_PURCHASED")
                #expect(error?.metadata["purchased_by_user_id"] == winner)
                let name = "Aunt \(followers.firstIndex { $0.id == winner }!)"
                #expect(error?.message == "This item was already bought by \(name).")
            }
            let listed = try await stack.family.listRegistryItems(
                .init(profileID: profile.description), options: mum.bearer)
            #expect(listed.items.first?.purchase?.purchasedByUserID == winner)
            let purchases = try await stack.pool.query(
                "SELECT count(*) FROM family.baby_activity WHERE profile_id = \(profile)::uuid AND kind = 6")
            #expect(try purchases[0].decode(Int.self) == 1)
        }
    }

    @Test func onlyTheBuyerOrAnOwnerUndoesAPurchase() async throws {
        try await BabyContentFamily.with { home in
            let item = try await home.createItem()
            let ids = Kindred_Family_V1_PurchaseRegistryItemRequest(
                profileID: home.profile.description, itemID: item.itemID)
            let undo = Kindred_Family_V1_UndoRegistryPurchaseRequest(
                profileID: home.profile.description, itemID: item.itemID)
            let bought = try await home.family.purchaseRegistryItem(ids, options: home.grandma.bearer).item
            #expect(bought?.purchase?.purchasedByUserID == home.grandma.id)
            // Buying again what one bought changes nothing.
            #expect(
                try await home.family.purchaseRegistryItem(ids, options: home.grandma.bearer).item == bought)
            let refused = await rpcError {
                try await home.family.undoRegistryPurchase(undo, options: home.grandpa.bearer)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "REGISTRY_PURCHASE_NOT_YOURS")
            let undone = try await home.family.undoRegistryPurchase(undo, options: home.grandma.bearer).item
            #expect(undone?.purchase == nil)
            _ = try await home.family.purchaseRegistryItem(ids, options: home.grandpa.bearer)
            #expect(
                try await home.family.undoRegistryPurchase(undo, options: home.mum.bearer).item?.purchase
                    == nil)
            #expect(
                try await home.activityKinds() == [
                    .registryItemAdded, .registryItemPurchased, .registryItemPurchased,
                    .registryPurchaseUndone,
                    .registryPurchaseUndone,
                ])
        }
    }

    @Test func anOwnerDoesNotBuyFromTheirOwnRegistry() async throws {
        try await BabyContentFamily.with { home in
            let item = try await home.createItem()
            let refused = await rpcError {
                try await home.family.purchaseRegistryItem(
                    .init(profileID: home.profile.description, itemID: item.itemID), options: home.mum.bearer)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_FOLLOWERS_ONLY")
        }
    }

    @Test func boughtItemsListAfterTheOthersInPages() async throws {
        try await BabyContentFamily.with { home in
            var items: [Kindred_Family_V1_RegistryItem] = []
            for name in ["Pram", "Cot", "Bath", "Sling"] {
                home.stack.clock.advance(seconds: 1)
                items.append(try await home.createItem(name))
            }
            for item in [items[0], items[2]] {
                _ = try await home.family.purchaseRegistryItem(
                    .init(profileID: home.profile.description, itemID: item.itemID),
                    options: home.grandma.bearer)
            }
            var names: [String] = []
            var token = ""
            repeat {
                let page = try await home.family.listRegistryItems(
                    .init(page: .init(pageSize: 3, pageToken: token)), options: home.grandpa.bearer)
                names += page.items.map(\.name)
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(names == ["Cot", "Sling", "Pram", "Bath"])
        }
    }

    @Test func aFollowerIsRefusedTheOwnersActionsAndNothingChanges() async throws {
        try await BabyContentFamily.with { home in
            let item = try await home.createItem()
            let profile = home.profile.description
            let refusals = [
                await rpcError {
                    try await home.family.createRegistryItem(
                        .init(requestID: "g", profileID: profile, item: .init(name: "Rattle")),
                        options: home.grandma.bearer)
                },
                await rpcError {
                    try await home.family.updateRegistryItem(
                        .init(
                            profileID: profile, itemID: item.itemID, updateMask: ["name"],
                            item: .init(name: "X")),
                        options: home.grandma.bearer)
                },
                await rpcError {
                    try await home.family.deleteRegistryItem(
                        .init(profileID: profile, itemID: item.itemID), options: home.grandma.bearer)
                },
            ]
            for refused in refusals {
                #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            }
            let listed = try await home.family.listRegistryItems(
                .init(profileID: profile), options: home.mum.bearer)
            #expect(listed.items == [item])
        }
    }

    @Test func everyBadFieldOfAnItemIsNamedAndAnUpdateKeepsTheRest() async throws {
        try await BabyContentFamily.with { home in
            let refused = await rpcError {
                try await home.family.createRegistryItem(
                    .init(
                        requestID: "has space", profileID: "nope",
                        item: .init(name: "", description: "\u{1b}[31m", linkURL: "ftp://x.example.com")),
                    options: home.mum.bearer)
            }
            #expect(
                refused?.badFields == [
                    "request_id", "profile_id", "item.name", "item.description", "item.link_url",
                ])
            let item = try await home.createItem()
            let updated = try await home.family.updateRegistryItem(
                .init(
                    profileID: home.profile.description, itemID: item.itemID, updateMask: ["link_url"],
                    item: .init(name: "ignored", linkURL: "")), options: home.mum.bearer
            ).item
            #expect(updated?.name == item.name && updated?.linkURL == "")
        }
    }
}

@Suite struct RegistryRetryTests {
    @Test func retriesRacingUnderOneRequestIDCreateOneItemAndAllGetIt() async throws {
        try await BabyContentFamily.with { home in
            let request = Kindred_Family_V1_CreateRegistryItemRequest(
                requestID: "pram-once", profileID: home.profile.description, item: .init(name: "Pram"))
            let items = try await withThrowingTaskGroup(of: Kindred_Family_V1_RegistryItem?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await home.family.createRegistryItem(request, options: home.mum.bearer).item
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(items.map { $0?.itemID }).count == 1)
            #expect(try await home.count("registry_items") == 1)
            #expect(try await home.activityKinds() == [.registryItemAdded])
        }
    }
}
