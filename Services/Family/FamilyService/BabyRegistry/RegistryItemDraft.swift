import KindredHandlers
import KindredMessages
import KindredRPC

/// A `CreateRegistryItemRequest` whose fields were checked: the idempotency key, the profile, and the item's
/// details.
struct RegistryItemDraft: Sendable, Equatable {
    let requestID: String
    let profile: BabyProfileID
    let details: RegistryItemDetails

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_CreateRegistryItemRequest) throws(RPCError) {
        var violations = FieldViolations()
        violations.add("request_id", IdempotentCreate.requestIDProblem(request.requestID))
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        details = RegistryItemField.details(
            RegistryItemField.allCases, of: request.item ?? .init(), over: .init(), &violations)
        self.profile = try violations.throwIfAny(profile)
        requestID = request.requestID
    }
}
