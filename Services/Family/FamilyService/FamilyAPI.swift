import KindredAPI

/// `kindred.family.v1.FamilyService`: each RPC reads the request, checks the caller, and hands the rule to
/// the part that owns it. The RPCs are grouped by concern in the `FamilyAPI+*.swift` files.
struct FamilyAPI: Kindred_Family_V1_FamilyService.Service {
    let context: FamilyContext

    /// Builds every part from `context`.
    init(context: FamilyContext) throws {
        self.context = context
    }

    /// Ends the server streams (events, notifications), so that they do not hold the drain.
    func closeStreams() async {}
}
