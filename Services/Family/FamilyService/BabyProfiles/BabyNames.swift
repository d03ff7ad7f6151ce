/// The names activity shows, derived from stored columns in one place each.
enum BabyNames {
    /// How a baby profile is shown: its name, or, while it has none, "Baby <the father's last name>" ("Baby"
    /// when he wrote none), from `baby_profiles.name` and the `profiles.last_name` of
    /// `family.baby_namesake`: the one owner who said they are the father, else (two fathers, or none) the
    /// owner who created the profile.
    static func profile(name: String?, namesakeLastName: String) -> String {
        if let name, !name.isEmpty { return name }
        return namesakeLastName.isEmpty ? "Baby" : "Baby \(namesakeLastName)"
    }

    /// How a member is shown: their family profile's display name, else their first and last name; empty
    /// when they wrote none.
    static func person(displayName: String, firstName: String, lastName: String) -> String {
        if !displayName.isEmpty { return displayName }
        return [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
