import KindredHandlers
import KindredMessages
import KindredRPC

/// A `SendFriendRequestRequest`'s `to`, checked: a user id, or a username of the form usernames take.
enum RecipientRef: Sendable, Equatable {
    case userID(UserID)
    case username(String)

    /// The recipient `ref` names, or INVALID_ARGUMENT naming `to`, `to.user_id` or `to.username`.
    init(_ ref: Kindred_Social_V1_UserRef?) throws(RPCError) {
        switch ref?.ref {
        case .userID(let text):
            self = .userID(try FieldViolations.id("to.user_id", text))
        case .username(let username):
            guard Person.isWellFormed(username: username) else {
                throw FieldViolations.single("to.username", "must be 3 to 30 letters, digits or _")
            }
            self = .username(username)
        case nil:
            throw FieldViolations.single("to", "must name a user by user_id or username")
        }
    }
}
