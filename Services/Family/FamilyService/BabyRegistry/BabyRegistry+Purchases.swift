import KindredHandlers
import KindredMessages

/// `PurchaseRegistryItem` and `UndoRegistryPurchase`: at most one buyer per item, and only the buyer or an
/// owner takes a purchase back.
extension BabyRegistry {
    /// Marks the item bought by `follower`. Of followers racing, exactly one wins; the others get
    /// ALREADY_PURCHASED naming the winner. Buying again what the caller bought returns the item unchanged.
    /// The item answered is the row the transaction bought or locked: no read after the commit.
    func purchase(_ itemID: RegistryItemID, of profileID: BabyProfileID, by follower: UserID) async throws
        -> Kindred_Family_V1_RegistryItem
    {
        let now = clock.now
        return try await database.transaction { tx in
            guard
                let (author, purchase) = try await RegistryItemStore.purchase(
                    itemID, of: profileID, by: follower, at: now, texts: texts, seals: seals, in: tx)
            else { throw FamilyError.babyProfileNotFound }
            guard author.role == .follower else {
                throw FamilyError.babyProfileFollowersOnly
            }
            if let bought = purchase {
                try await BabyActivityLog.record(
                    BabyActivityEntry(
                        profile: profileID, kind: .registryItemPurchased, actor: follower,
                        subject: itemID.uuid, detail: bought.details.name),
                    names: author.names, at: now, seals: seals, in: tx)
                return bought.proto
            }
            guard let stored = try await RegistryItemStore.lock(itemID, of: profileID, texts: texts, in: tx)
            else {
                throw FamilyError.registryItemNotFound
            }
            guard let buyer = stored.purchase?.buyer, buyer != follower else { return stored.proto }
            let name = try await ProfileStore.read(buyer, names: nil, on: tx).displayName
            throw FamilyError.alreadyPurchased(by: buyer, named: name)
        }
    }

    /// Makes a bought item unbought again, for its buyer or an owner; an item nobody bought is returned as it
    /// is. The activity log records the undoing (`registryPurchaseUndone`).
    func undoPurchase(_ itemID: RegistryItemID, of profileID: BabyProfileID, by caller: UserID) async throws
        -> Kindred_Family_V1_RegistryItem
    {
        let now = clock.now
        return try await database.transaction { tx in
            let author = try await BabyMembership.holdAuthor(caller, of: profileID, seals: seals, in: tx)
            guard let stored = try await RegistryItemStore.lock(itemID, of: profileID, texts: texts, in: tx)
            else {
                throw FamilyError.registryItemNotFound
            }
            guard let buyer = stored.purchase?.buyer else { return stored.proto }
            guard author.role == .owner || buyer == caller else { throw FamilyError.purchaseNotYours }
            RegistryItemStore.undoPurchase(itemID, of: profileID, in: tx)
            try await BabyActivityLog.record(
                BabyActivityEntry(
                    profile: profileID, kind: .registryPurchaseUndone, actor: caller, subject: itemID.uuid,
                    detail: stored.details.name), names: author.names, at: now, seals: seals, in: tx)
            return stored.unbought.proto
        }
    }
}
