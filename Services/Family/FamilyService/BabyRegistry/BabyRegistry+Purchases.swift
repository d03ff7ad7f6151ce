import KindredHandlers
import KindredMessages

/// `PurchaseRegistryItem` and `UndoRegistryPurchase`: at most one buyer per item, and only the buyer or an
/// owner takes a purchase back.
extension BabyRegistry {
    /// Marks the item bought by `follower`. Of followers racing, exactly one wins; the others get
    /// ALREADY_PURCHASED naming the winner. Buying again what the caller bought returns the item unchanged.
    func purchase(profile: String, item: String, by follower: UserID) async throws
        -> Kindred_Family_V1_RegistryItem
    {
        let (profileID, itemID) = try Self.ids(profile, item)
        let now = clock.now
        try await database.transaction { tx in
            guard try await BabyMembership.holdMember(follower, of: profileID, in: tx) == .follower else {
                throw FamilyError.babyProfileFollowersOnly
            }
            if let bought = try await RegistryItemStore.purchase(
                itemID, of: profileID, by: follower, at: now, in: tx)
            {
                let name = try texts.open(bought, of: RegistryTexts.Key(profile: profileID, item: itemID))[0]
                try await BabyActivityLog.record(
                    BabyActivityEntry(
                        profile: profileID, kind: .registryItemPurchased, actor: follower,
                        subject: itemID.uuid,
                        detail: name), at: now, seals: seals, in: tx)
                return
            }
            guard let stored = try await RegistryItemStore.lock(itemID, of: profileID, texts: texts, in: tx)
            else {
                throw FamilyError.registryItemNotFound
            }
            guard let buyer = stored.purchase?.buyer, buyer != follower else { return }
            let name = try await ProfileStore.read(buyer, names: nil, on: tx).displayName
            throw FamilyError.alreadyPurchased(by: buyer, named: name)
        }
        return try await read(itemID, of: profileID)
    }

    /// Makes a bought item unbought again, for its buyer or an owner; an item nobody bought is returned as it
    /// is. The activity log records the undoing (`registryPurchaseUndone`).
    func undoPurchase(profile: String, item: String, by caller: UserID) async throws
        -> Kindred_Family_V1_RegistryItem
    {
        let (profileID, itemID) = try Self.ids(profile, item)
        let now = clock.now
        try await database.transaction { tx in
            let role = try await BabyMembership.holdMember(caller, of: profileID, in: tx)
            guard let stored = try await RegistryItemStore.lock(itemID, of: profileID, texts: texts, in: tx)
            else {
                throw FamilyError.registryItemNotFound
            }
            guard let buyer = stored.purchase?.buyer else { return }
            guard role == .owner || buyer == caller else { throw FamilyError.purchaseNotYours }
            try await RegistryItemStore.undoPurchase(itemID, of: profileID, in: tx)
            try await BabyActivityLog.record(
                BabyActivityEntry(
                    profile: profileID, kind: .registryPurchaseUndone, actor: caller, subject: itemID.uuid,
                    detail: stored.details.name), at: now, seals: seals, in: tx)
        }
        return try await read(itemID, of: profileID)
    }
}
