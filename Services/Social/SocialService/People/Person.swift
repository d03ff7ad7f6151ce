import KindredAPI
import KindredHandlers
import KindredMessages

/// Someone social has met: identity's id and username, and whether they were 13–17 when social learned of
/// them (see `social.people`).
struct Person: Sendable, Hashable {
    let id: UserID
    let username: String
    let minor: Bool

    /// Whether `username` could be anyone's: 3–30 of `[A-Za-z0-9_]`, identity's rule. Check it (as a field
    /// violation) before asking the directory.
    static func isWellFormed(username: String) -> Bool {
        (3...30).contains(username.utf8.count)
            && username.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || byte == 95
            }
    }

    /// The person as the API shows them.
    var proto: Kindred_Social_V1_Person {
        Kindred_Social_V1_Person(userID: id.description, username: username)
    }
}
