/// Who calls a cell: a token that must not authenticate, or a principal with a relation to the cast's things.
enum CallerKind: String, CaseIterable, Sendable {
    case noToken = "no token"
    case malformed = "malformed"
    case tampered = "tampered signature"
    case algNone = "alg none"
    case expired = "expired"
    case unknownKey = "unknown key"
    /// The owner's account on a family device in child mode: scope `child_readonly`.
    case childMode = "child mode"
    /// An adult with no relation to the cast's profile, minor or conversation: another family's user.
    case stranger = "other family"
    /// A follower of the cast's baby profile.
    case follower = "follower"
    /// The owner of the cast's baby profile.
    case owner = "owner"
    /// The guardian of the cast's minor.
    case guardian = "guardian"
    /// A Kindred service's client_credentials token (family's).
    case service = "service"
    /// An admin's account (role admin in identity's accounts), signed in with the password grant.
    case admin = "admin"

    /// Tokens no protected method may accept: every one of them gets UNAUTHENTICATED.
    var isUnauthenticated: Bool { refusalReason != nil }

    /// The `ErrorInfo.reason` the shared layer refuses this token with, so each crafted token is shown to fail
    /// the check it was made for (a tampered token on its signature, not on its shape).
    var refusalReason: String? {
        switch self {
        case .noToken: "TOKEN_MISSING"
        case .malformed: "TOKEN_MALFORMED"
        case .tampered: "TOKEN_BAD_SIGNATURE"
        case .algNone: "TOKEN_UNSUPPORTED_ALGORITHM"
        case .expired: "TOKEN_EXPIRED"
        case .unknownKey: "TOKEN_UNKNOWN_KEY_ID"
        default: nil
        }
    }
}
