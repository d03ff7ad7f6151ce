import KindredHandlers
import KindredMessages
import KindredRPC

/// A `ListRegistryItemsRequest` whose fields were checked: the one profile it names (nil: every profile of the
/// reader's) and the page asked for.
struct RegistryQuery: Sendable {
    let profile: BabyProfileID?
    /// Keyed by whether the item is bought (unbought first), then by the item.
    let page: ContentPage<(Bool, RegistryItemID)>

    /// The query `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListRegistryItemsRequest) throws(RPCError) {
        var violations = FieldViolations()
        profile = request.profileID.isEmpty ? nil : violations.id("profile_id", request.profileID)
        page = ContentPage(request.page, list: "registry", keyFields: 2, &violations) { fields in
            Bool(fields[0]).flatMap { purchased in RegistryItemID(fields[1]).map { (purchased, $0) } }
        }
        try violations.throwIfAny()
    }
}
