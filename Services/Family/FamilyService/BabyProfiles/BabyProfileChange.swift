import KindredHandlers
import KindredMessages
import KindredRPC

/// An `UpdateBabyProfileRequest` whose fields were checked: the profile (`profile.profile_id`), the fields the
/// mask names, and their new values.
struct BabyProfileChange: Sendable, Equatable {
    let profile: BabyProfileID
    let changed: Set<BabyProfileField>
    let fields: BabyProfileStore.Fields

    /// The change `mask` asks for of `changes`, or INVALID_ARGUMENT naming every unknown path and refused value.
    init(mask: [String], to changes: Kindred_Family_V1_BabyProfile?) throws(RPCError) {
        let changes = changes ?? .init()
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile.profile_id", changes.profileID)
        if mask.isEmpty { violations.add("update_mask", "must name at least one field") }
        var changed = Set<BabyProfileField>()
        var fields = BabyProfileStore.Fields()
        for path in mask {
            guard let field = BabyProfileField(rawValue: path) else {
                violations.add("update_mask", "names an unknown field \"\(path)\"")
                continue
            }
            if changed.insert(field).inserted { field.take(from: changes, into: &fields, &violations) }
        }
        self.profile = try violations.throwIfAny(profile)
        self.changed = changed
        self.fields = fields
    }
}
