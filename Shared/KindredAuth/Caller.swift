public import FoundationEssentials

/// Who is calling, as a verified access token says: what a handler authorizes against.
public struct Caller: Sendable, Hashable {
    /// Whom `sub` names: a person's account, or a client of the `client_credentials` grant.
    public enum Principal: Sendable, Hashable {
        /// A person with an account: `sub` is their user id, read once here (KindredHandlers' `accountUserID`
        /// gives it as a `UserID`).
        case account(UUID)
        /// A service, or an operator's tool (role `admin`), by its client id: no service's tables hold it. A
        /// `user` token whose `sub` is no UUID, which identity never issues, names no account either.
        case client(String)
    }

    /// Whom the token names (`sub`, told apart by `role`).
    public let principal: Principal
    /// `role`.
    public let role: TokenClaims.Role
    /// `age_band`.
    public let ageBand: TokenClaims.AgeBand
    /// `pc`: parental controls are active, so the caller's guardians' restrictions apply.
    public let parentalControls: Bool
    /// `scope`: `childReadOnly` callers may read but not change anything.
    public let scope: TokenClaims.Scope
    /// `jti`: the token's unique id, for logs.
    public let tokenID: String
    /// `exp`, in seconds since the Unix epoch: the caller is authenticated until then.
    public let expiresAt: Int64
    /// `guardian_pin`: parent mode proven with this minor's guardian PIN on the caller's device; nil otherwise,
    /// and for a claim that is no UUID (KindredHandlers' `guardianPinMinorID` gives it as a `UserID`).
    package let guardianPinMinor: UUID?

    init(claims: TokenClaims) {
        principal =
            if claims.role != .service, let account = UUIDText.parse(claims.subject) {
                .account(account)
            } else {
                .client(claims.subject)
            }
        role = claims.role
        ageBand = claims.ageBand
        parentalControls = claims.parentalControls
        scope = claims.scope
        tokenID = claims.tokenID
        expiresAt = claims.expiresAt
        guardianPinMinor = claims.guardianPinMinor.flatMap(UUIDText.parse)
    }

    /// The client id when the token names a client (`principal`), nil for a person's account.
    public var clientID: String? {
        guard case .client(let id) = principal else { return nil }
        return id
    }
}

/// Why a token was refused; the RPC layer answers every one with UNAUTHENTICATED.
public enum TokenVerificationError: String, Error, Sendable, CaseIterable, CustomStringConvertible {
    /// Not three base64url parts, or the header or claims are not what Kindred issues.
    case malformed = "TOKEN_MALFORMED"
    /// The header's `alg` is anything but `EdDSA`, `none` and HMAC included.
    case unsupportedAlgorithm = "TOKEN_UNSUPPORTED_ALGORITHM"
    /// No known key has the header's `kid`: refresh the keys from identity's `GetSigningKeys` and try once more.
    case unknownKeyID = "TOKEN_UNKNOWN_KEY_ID"
    /// The signature does not match the header and claims under the named key.
    case badSignature = "TOKEN_BAD_SIGNATURE"
    /// `exp` has passed.
    case expired = "TOKEN_EXPIRED"
    /// `iat` is in the future: the issuer's clock or the token is wrong.
    case notYetValid = "TOKEN_NOT_YET_VALID"

    /// The machine-readable reason, for `ErrorInfo.reason` and logs.
    public var reason: String { rawValue }

    /// What the caller is told: a sentence an app can show, saying what to do. Every token that is not
    /// Kindred's, or not intact, reads the same; `reason` tells them apart.
    public var message: String {
        switch self {
        case .malformed, .unsupportedAlgorithm, .unknownKeyID, .badSignature:
            "Your sign-in is not valid. Please sign in again."
        case .expired: "Your sign-in has expired. Please sign in again."
        case .notYetValid:
            "Your sign-in is not valid yet. Check the device's date and time, then sign in again."
        }
    }

    /// One line for the log.
    public var description: String {
        switch self {
        case .malformed: "the access token is malformed"
        case .unsupportedAlgorithm: "the access token is not signed with EdDSA"
        case .unknownKeyID: "the access token names an unknown signing key"
        case .badSignature: "the access token's signature is invalid"
        case .expired: "the access token has expired"
        case .notYetValid: "the access token was issued in the future"
        }
    }
}
