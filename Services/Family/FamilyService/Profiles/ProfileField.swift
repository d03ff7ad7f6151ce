import FoundationEssentials
import KindredMessages

/// A field of a profile the user may change, named in `update_mask` by its proto name.
enum ProfileField: String, CaseIterable, Sendable {
    case displayName = "display_name"
    case firstName = "first_name"
    case lastName = "last_name"
    case avatarURL = "avatar_url"
    case bio

    /// The field's value in `profile`.
    func value(in profile: Kindred_Family_V1_Profile) -> String {
        switch self {
        case .displayName: profile.displayName
        case .firstName: profile.firstName
        case .lastName: profile.lastName
        case .avatarURL: profile.avatarURL
        case .bio: profile.bio
        }
    }

    /// Sets the field of `row` to `value`.
    func assign(_ value: String, to row: inout ProfileStore.Row) {
        switch self {
        case .displayName: row.displayName = value
        case .firstName: row.firstName = value
        case .lastName: row.lastName = value
        case .avatarURL: row.avatarURL = value
        case .bio: row.bio = value
        }
    }

    /// Why `value` cannot be stored in this field, or nil. Lengths count characters as a reader sees them.
    func problem(with value: String) -> String? {
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters"
        }
        switch self {
        case .displayName, .firstName, .lastName:
            return value.count <= 50 ? nil : "must be at most 50 characters"
        case .bio:
            return value.count <= 280 ? nil : "must be at most 280 characters"
        case .avatarURL:
            return Self.avatarURLProblem(value)
        }
    }

    /// Empty, or an `https://` URL with a host, of printable ASCII, at most 2,048 characters.
    private static func avatarURLProblem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        guard text.utf8.count <= 2_048 else { return "must be at most 2048 characters" }
        guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), let url = URL(string: text),
            url.scheme?.lowercased() == "https", let host = url.host(), !host.isEmpty
        else { return "must be empty or an https:// URL" }
        return nil
    }
}
