/// The names activity shows, derived from stored columns in one place each.
enum BabyNames {
    /// How a baby profile is shown: its name, or, while it has none, "Baby <last name of the owner who created
    /// it>" ("Baby" when that owner wrote no last name), from `baby_profiles.name` and the creator's
    /// `profiles.last_name`.
    static func profile(name: String?, creatorLastName: String) -> String {
        if let name, !name.isEmpty { return name }
        return creatorLastName.isEmpty ? "Baby" : "Baby \(creatorLastName)"
    }

    /// How a member is shown: their family profile's display name, else their first and last name; empty
    /// when they wrote none.
    static func person(displayName: String, firstName: String, lastName: String) -> String {
        if !displayName.isEmpty { return displayName }
        return [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
