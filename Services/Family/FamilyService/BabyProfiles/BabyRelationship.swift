import KindredHandlers
import KindredMessages
import KindredRPC

/// How a member is related to the baby: one of `Relationship`'s values, and the text of "Other". Stored as
/// `family.baby_members.relationship` (the enum's number) and `relationship_other`. A follower names one of
/// GRANDMA to OTHER; an owner may say mother, father or parent, which picks the last name of the default name.
struct BabyRelationship: Sendable, Equatable {
    static let otherLength = 1...40

    let kind: Kindred_Family_V1_Relationship
    let other: String

    /// What an owner who did not say has: no relationship.
    static let none = BabyRelationship(kind: .unspecified, other: "")

    init(kind: Kindred_Family_V1_Relationship, other: String) {
        self.kind = kind
        self.other = other
    }

    /// The relationship an acceptance names, recording what is wrong with it in `violations`. Unspecified is
    /// allowed here: whether one is needed depends on the invitation's role.
    init?(
        _ kind: Kindred_Family_V1_Relationship, other: String, _ violations: inout FieldViolations
    ) {
        if case .unrecognized = kind {
            violations.add("relationship", "is not a relationship this service knows")
            return nil
        }
        if kind == .other {
            if !Self.otherLength.contains(other.count) {
                violations.add("relationship_other", "must be 1 to 40 characters with relationship OTHER")
                return nil
            }
            if other.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                violations.add("relationship_other", "must not contain control characters")
                return nil
            }
            if other.allSatisfy(\.isWhitespace) {
                violations.add("relationship_other", "must not be only whitespace")
                return nil
            }
        } else if !other.isEmpty {
            violations.add("relationship_other", "must be empty unless relationship is OTHER")
            return nil
        }
        self.init(kind: kind, other: other)
    }

    /// Whether it is one an owner says (mother, father, parent) rather than a follower's.
    var isOwners: Bool { [.mother, .father, .parent].contains(kind) }

    /// What is wrong with it for a member of `role`, nil when nothing: an owner says an owner's or none, a
    /// follower names a follower's.
    func problem(for role: BabyRole) -> String? {
        switch role {
        case .owner where kind != .unspecified && !isOwners: "must be MOTHER, FATHER or PARENT for an owner"
        case .follower where kind == .unspecified: "is required to follow a baby"
        case .follower where isOwners: "must be a follower's relationship (GRANDMA to OTHER)"
        case .owner, .follower: nil
        }
    }

    /// INVALID_ARGUMENT on `relationship` when it is not one `role` may have.
    func check(for role: BabyRole) throws(RPCError) {
        if let problem = problem(for: role) { throw FieldViolations.single("relationship", problem) }
    }

    /// What the activity log says of it: the text of "Other", the value's name otherwise.
    var label: String {
        switch kind {
        case .grandma: "Grandma"
        case .grandpa: "Grandpa"
        case .aunt: "Aunt"
        case .uncle: "Uncle"
        case .godmother: "Godmother"
        case .godfather: "Godfather"
        case .familyFriend: "Family Friend"
        case .greatGrandma: "Great-grandma"
        case .greatGrandpa: "Great-grandpa"
        case .cousin: "Cousin"
        case .sibling: "Sibling"
        case .other: other
        case .mother: "Mother"
        case .father: "Father"
        case .parent, .unspecified: "Parent"
        case .unrecognized: ""
        }
    }
}
