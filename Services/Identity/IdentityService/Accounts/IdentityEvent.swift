import KindredAuth
import KindredEvents
public import KindredHandlers
import KindredMessages

/// An event identity publishes on `WatchEvents`. Stored as a serialized `Event` holding only its payload;
/// the stream adds the cursor, the type and the time as it serves it.
enum IdentityEvent: Sendable, Equatable {
    case registered(userID: String, ageBand: TokenClaims.AgeBand, parentalControls: Bool)
    case emailVerified(userID: String)
    case cameOfAge(userID: String)
    case deleted(userID: String)

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
                    userID: userID, ageBand: band.proto, parentalControls: controls))
        case .emailVerified(let userID):
            .userEmailVerified(Kindred_Identity_V1_UserEmailVerified(userID: userID))
        case .cameOfAge(let userID):
            .userCameOfAge(Kindred_Identity_V1_UserCameOfAge(userID: userID))
        case .deleted(let userID):
            .userDeleted(Kindred_Identity_V1_UserDeleted(userID: userID))
        }
    }
}

extension Kindred_Identity_V1_Event: WatchedEvent {}
