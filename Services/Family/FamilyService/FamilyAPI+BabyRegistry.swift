import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// A baby profile's registry: `CreateRegistryItem`, `UpdateRegistryItem`, `DeleteRegistryItem`,
/// `ListRegistryItems`, `PurchaseRegistryItem`, `UndoRegistryPurchase`.
extension FamilyAPI {
    func createRegistryItem(
        _ request: Kindred_Family_V1_CreateRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_CreateRegistryItemResponse {
        let owner = try context.authenticatedCaller().account()
        let item = try await registry.create(try RegistryItemDraft(request), by: owner)
        return Kindred_Family_V1_CreateRegistryItemResponse(item: item)
    }

    func updateRegistryItem(
        _ request: Kindred_Family_V1_UpdateRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateRegistryItemResponse {
        let owner = try context.authenticatedCaller().account()
        let item = try await registry.update(try RegistryItemChange(request), by: owner)
        return Kindred_Family_V1_UpdateRegistryItemResponse(item: item)
    }

    func deleteRegistryItem(
        _ request: Kindred_Family_V1_DeleteRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_DeleteRegistryItemResponse {
        let owner = try context.authenticatedCaller().account()
        let (profile, item) = try BabyRegistry.ids(request.profileID, request.itemID)
        try await registry.delete(item, of: profile, by: owner)
        return Kindred_Family_V1_DeleteRegistryItemResponse()
    }

    func listRegistryItems(
        _ request: Kindred_Family_V1_ListRegistryItemsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListRegistryItemsResponse {
        let reader = try context.authenticatedCaller().account()
        return try await registry.list(try RegistryQuery(request), readBy: reader)
    }

    func purchaseRegistryItem(
        _ request: Kindred_Family_V1_PurchaseRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_PurchaseRegistryItemResponse {
        let follower = try context.authenticatedCaller().account()
        let (profile, itemID) = try BabyRegistry.ids(request.profileID, request.itemID)
        let item = try await registry.purchase(itemID, of: profile, by: follower)
        return Kindred_Family_V1_PurchaseRegistryItemResponse(item: item)
    }

    func undoRegistryPurchase(
        _ request: Kindred_Family_V1_UndoRegistryPurchaseRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UndoRegistryPurchaseResponse {
        let caller = try context.authenticatedCaller().account()
        let (profile, itemID) = try BabyRegistry.ids(request.profileID, request.itemID)
        let item = try await registry.undoPurchase(itemID, of: profile, by: caller)
        return Kindred_Family_V1_UndoRegistryPurchaseResponse(item: item)
    }
}
