import KindredHandlers
import KindredPostgres

/// `family.profile_counts`: how many rows of a counted table each profile holds, kept by triggers (migration 37),
/// so that a limit is checked by reading one row, not by counting the profile's rows.
enum ProfileCounts {
    /// The tables whose rows are counted per profile, by the name the triggers record.
    enum Counted: String {
        case registryItems = "registry_items"
        case photos = "baby_photos"
    }

    /// How many `counted` rows `profile` holds (0 before its first), as a scalar SQL expression.
    static func held(_ counted: Counted, by profile: BabyProfileID) -> PostgresQuery {
        """
        coalesce((SELECT items FROM family.profile_counts
            WHERE profile_id = \(profile)::uuid AND counted = \(counted.rawValue)), 0)
        """
    }
}
