import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// A baby profile's registry: owners add, change and delete up to 500 items; every member reads it; followers
/// buy items (`BabyRegistry+Purchases.swift`).
struct BabyRegistry: Sendable {
    /// The most items one profile's registry holds.
    static let maximumItems = 500

    let database: PostgresPool
    let clock: WallClock
    let membership: BabyMembership
    /// Opens the profile's sealed name for the notices the activity log posts.
    let seals: BabySeals

    init(database: PostgresPool, clock: WallClock, seals: BabySeals) {
        self.database = database
        self.clock = clock
        self.seals = seals
        membership = BabyMembership(database: database)
    }

    /// How the items' names and descriptions are sealed.
    var texts: SealedTexts<RegistryTexts.Key> { RegistryTexts.sealed(with: seals.cipher) }

    /// Adds the item `draft` describes, by `owner`; REGISTRY_FULL past `maximumItems`. A retry under the same
    /// request_id (with the same name) returns the first item, even once the registry is full.
    func create(_ draft: RegistryItemDraft, by owner: UserID) async throws -> Kindred_Family_V1_RegistryItem {
        let (requestID, profileID, details) = (draft.requestID, draft.profile, draft.details)
        let now = clock.now
        let item = StoredRegistryItem(
            id: .generate(at: now), profile: profileID, details: details, createdAt: now, updatedAt: now,
            purchase: nil)
        // The item as inserted (nil: created earlier under the request id), and its id.
        let (inserted, id): (StoredRegistryItem?, RegistryItemID) = try await IdempotentCreate.run(
            {
                try await database.transaction { tx in
                    guard
                        let (author, earlier) = try await RegistryItemStore.lockCreates(
                            on: profileID, findingCreatedBy: owner, requestID: requestID,
                            seals: seals,
                            in: tx)
                    else { throw FamilyError.babyProfileNotFound }
                    guard author.role == .owner else { throw FamilyError.babyProfileOwnersOnly }
                    if let earlier { return (nil, earlier) }
                    guard
                        let inserted = try await RegistryItemStore.insert(
                            item, by: owner, requestID: requestID, limit: Self.maximumItems,
                            texts: texts,
                            in: tx)
                    else { throw FamilyError.registryFull }
                    try await BabyActivityLog.record(
                        BabyActivityEntry(
                            profile: profileID, kind: .registryItemAdded, actor: owner, subject: item.id.uuid,
                            detail: details.name), names: author.names, at: now, seals: seals, in: tx)
                    return (inserted, item.id)
                }
            },
            first: {
                try await RegistryItemStore.created(
                    by: owner, requestID: requestID, on: profileID, on: database
                ).map { (nil, $0) }
            })
        if let inserted { return inserted.proto }
        let created = try await read(id, of: profileID)
        return try IdempotentCreate.retried(created, same: created.name == details.name)
    }

    /// Changes the fields `change` names, for an owner.
    func update(_ change: RegistryItemChange, by owner: UserID) async throws -> Kindred_Family_V1_RegistryItem
    {
        let (profileID, itemID) = (change.profile, change.item)
        let now = clock.now
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profileID, in: tx)
            guard let stored = try await RegistryItemStore.lock(itemID, of: profileID, texts: texts, in: tx)
            else {
                throw FamilyError.registryItemNotFound
            }
            try await RegistryItemStore.update(
                itemID, of: profileID, to: change.applied(to: stored.details), texts: texts, at: now, in: tx)
        }
        return try await read(itemID, of: profileID)
    }

    /// Deletes an item, bought or not, for an owner.
    func delete(_ itemID: RegistryItemID, of profileID: BabyProfileID, by owner: UserID) async throws {
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profileID, in: tx)
            guard try await RegistryItemStore.delete(itemID, of: profileID, in: tx) else {
                throw FamilyError.registryItemNotFound
            }
        }
    }

    /// A page of the registry of one profile, or of every profile `reader` belongs to: unbought items first.
    func list(_ query: RegistryQuery, readBy reader: UserID) async throws
        -> Kindred_Family_V1_ListRegistryItemsResponse
    {
        let (profile, page) = (query.profile, query.page)
        let texts = texts
        let items = try await membership.scoped(
            reader, profile: profile, row: { try RegistryItemStore.storedItem($0, texts: texts) }
        ) { RegistryItemStore.items(of: $0, after: page.after, limit: page.size + 1) }
        let (served, next) = page.served(items) { [String($0.purchase != nil), $0.id.description] }
        return Kindred_Family_V1_ListRegistryItemsResponse(items: served.map(\.proto), page: next)
    }

    /// `item` as members see it; REGISTRY_ITEM_NOT_FOUND when it is not on `profile`.
    func read(_ item: RegistryItemID, of profile: BabyProfileID) async throws
        -> Kindred_Family_V1_RegistryItem
    {
        guard
            let stored = try await RegistryItemStore.items(
                of: [profile], only: item, after: nil, limit: 1, texts: texts, on: database
            ).first
        else { throw FamilyError.registryItemNotFound }
        return stored.proto
    }

    /// A profile id and an item id, or INVALID_ARGUMENT naming each bad one.
    static func ids(_ profile: String, _ item: String) throws(RPCError) -> (BabyProfileID, RegistryItemID) {
        try FieldViolations.ids(("profile_id", profile), ("item_id", item))
    }
}
