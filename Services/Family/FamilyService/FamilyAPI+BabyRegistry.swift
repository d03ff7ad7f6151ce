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
        let item = try await registry.create(request, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_CreateRegistryItemResponse(item: item)
    }

    func updateRegistryItem(
        _ request: Kindred_Family_V1_UpdateRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateRegistryItemResponse {
        let item = try await registry.update(request, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_UpdateRegistryItemResponse(item: item)
    }

    func deleteRegistryItem(
        _ request: Kindred_Family_V1_DeleteRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_DeleteRegistryItemResponse {
        try await registry.delete(
            profile: request.profileID, item: request.itemID, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_DeleteRegistryItemResponse()
    }

    func listRegistryItems(
        _ request: Kindred_Family_V1_ListRegistryItemsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListRegistryItemsResponse {
        try await registry.list(request, readBy: try context.authenticatedCaller().account())
    }

    func purchaseRegistryItem(
        _ request: Kindred_Family_V1_PurchaseRegistryItemRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_PurchaseRegistryItemResponse {
        let item = try await registry.purchase(
            profile: request.profileID, item: request.itemID, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_PurchaseRegistryItemResponse(item: item)
    }

    func undoRegistryPurchase(
        _ request: Kindred_Family_V1_UndoRegistryPurchaseRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UndoRegistryPurchaseResponse {
        let item = try await registry.undoPurchase(
            profile: request.profileID, item: request.itemID, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_UndoRegistryPurchaseResponse(item: item)
    }
}
