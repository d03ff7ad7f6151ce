import KindredAuth
import KindredEvents
public import KindredHandlers
import KindredMessages

/// An event identity publishes on `WatchEvents`. Stored as a serialized `Event` holding only its payload;
/// the stream adds the cursor, the type and the time as it serves it.
enum IdentityEvent: Sendable, Equatable {
    case registered(userID: UserID, ageBand: TokenClaims.AgeBand, parentalControls: Bool)
    case emailVerified(userID: UserID)
    case cameOfAge(userID: UserID)
    case deleted(userID: UserID)

    /// The event's name on the stream.
    var type: String {
        switch self {
        case .registered: "user.registered"
        case .emailVerified: "user.email_verified"
        case .cameOfAge: "user.came_of_age"
        case .deleted: "user.deleted"
        }
    }

    /// The outbox row's payload.
    func serialized() throws -> [UInt8] {
        try Kindred_Identity_V1_Event(payload: payload).serializedBytes()
    }

    private var payload: Kindred_Identity_V1_Event.OneOf_Payload {
        switch self {
        case .registered(let userID, let band, let controls):
            .userRegistered(
                Kindred_Identity_V1_UserRegistered(
                    userID: userID.description, ageBand: band.proto, parentalControls: controls))
        case .emailVerified(let userID):
            .userEmailVerified(Kindred_Identity_V1_UserEmailVerified(userID: userID.description))
        case .cameOfAge(let userID):
            .userCameOfAge(Kindred_Identity_V1_UserCameOfAge(userID: userID.description))
        case .deleted(let userID):
            .userDeleted(Kindred_Identity_V1_UserDeleted(userID: userID.description))
        }
    }
}

extension Kindred_Identity_V1_Event: WatchedEvent {}
