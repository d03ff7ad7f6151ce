import KindredMessages

extension BabyRole {
    /// The role a request names; nil for unspecified or unknown.
    init?(_ proto: Kindred_Family_V1_BabyRole) {
        switch proto {
        case .owner: self = .owner
        case .follower: self = .follower
        case .unspecified, .unrecognized: return nil
        }
    }

    /// The wire form.
    var proto: Kindred_Family_V1_BabyRole {
        switch self {
        case .owner: .owner
        case .follower: .follower
        }
    }
}
