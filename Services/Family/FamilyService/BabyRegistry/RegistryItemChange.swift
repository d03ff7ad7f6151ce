import KindredHandlers
import KindredMessages
import KindredRPC

/// An `UpdateRegistryItemRequest` whose fields were checked: the profile, its item, and the fields the mask
/// names with their new values, each checked before the item is read.
struct RegistryItemChange: Sendable, Equatable {
    let profile: BabyProfileID
    let item: RegistryItemID
    let fields: [RegistryItemField]
    let changes: Kindred_Family_V1_RegistryItem

    /// The change `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_UpdateRegistryItemRequest) throws(RPCError) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let item: RegistryItemID? = violations.id("item_id", request.itemID)
        fields = RegistryItemField.named(by: request.updateMask, &violations)
        changes = request.item ?? .init()
        _ = RegistryItemField.details(fields, of: changes, over: .init(), &violations)
        (self.profile, self.item) = try violations.throwIfAny(profile, item)
    }

    /// `stored` with the changed fields replaced.
    func applied(to stored: RegistryItemDetails) -> RegistryItemDetails {
        var unused = FieldViolations()
        return RegistryItemField.details(fields, of: changes, over: stored, &unused)
    }
}
