import KindredAPI

/// `kindred.family.v1.FamilyService`: each RPC reads the request, checks the caller, and hands the rule to
/// the part that owns it. The RPCs are grouped by concern in the `FamilyAPI+*.swift` files.
struct FamilyAPI: Kindred_Family_V1_FamilyService.Service {
    let context: FamilyContext
}
