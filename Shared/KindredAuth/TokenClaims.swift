/// What an access token says about its holder (DESIGN.md, "Tokens and authorization").
public struct TokenClaims: Sendable, Hashable {
    /// What kind of principal holds the token.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        case user
        case admin
        case service
    }

    /// The holder's assured age band; nobody under 13 has an account.
    public enum AgeBand: String, Sendable, Hashable, CaseIterable {
        case thirteenToFifteen = "13-15"
        case sixteenToSeventeen = "16-17"
        case adult = "18+"
    }

    /// What the token may do: everything its holder may, or only read (a family device in child mode).
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        case full
        case childReadOnly = "child_readonly"
    }

    /// `sub`: the user id (UUIDv7 text), or the client id for a service.
    public var subject: String
    /// `role`.
    public var role: Role
    /// `age_band`.
    public var ageBand: AgeBand
    /// `pc`: parental controls are active for the holder.
    public var parentalControls: Bool
    /// `scope`.
    public var scope: Scope
    /// `iat`: when the token was issued, in seconds since the Unix epoch.
    public var issuedAt: Int64
    /// `exp`: when the token stops being accepted, in seconds since the Unix epoch.
    public var expiresAt: Int64
    /// `jti`: a unique id for this token, for logs and revocation lists.
    public var tokenID: String
    /// `guardian_pin`, present only on parent-mode tokens proven with a guardian PIN: the minor whose PIN it
    /// was, so a service can let that minor's device act as their guardian for as long as parent mode lasts.
    public var guardianPinMinor: String?

    /// Creates claims; `TokenSigner` signs them as they are.
    public init(
        subject: String, role: Role, ageBand: AgeBand, parentalControls: Bool, scope: Scope,
        issuedAt: Int64, expiresAt: Int64, tokenID: String, guardianPinMinor: String? = nil
    ) {
        self.subject = subject
        self.role = role
        self.ageBand = ageBand
        self.parentalControls = parentalControls
        self.scope = scope
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.tokenID = tokenID
        self.guardianPinMinor = guardianPinMinor
    }
}

extension TokenClaims {
    /// The JSON payload, members in a fixed order.
    var jsonBytes: [UInt8] {
        var writer = FlatJSONWriter()
        writer.append("sub", .string(subject))
        writer.append("role", .string(role.rawValue))
        writer.append("age_band", .string(ageBand.rawValue))
        writer.append("pc", .bool(parentalControls))
        writer.append("scope", .string(scope.rawValue))
        writer.append("iat", .integer(issuedAt))
        writer.append("exp", .integer(expiresAt))
        writer.append("jti", .string(tokenID))
        if let guardianPinMinor { writer.append("guardian_pin", .string(guardianPinMinor)) }
        return writer.finish()
    }

    /// The times a token may carry: from the Unix epoch to the end of year 9999, so adding a leeway never
    /// overflows.
    static let timestamps: ClosedRange<Int64> = 0...253_402_300_799

    /// Reads a JSON payload; nil unless every claim is present, of its type and in its range.
    ///
    /// Unknown members are ignored, so the issuer can add a claim before every verifier knows it.
    init?(jsonBytes: [UInt8]) {
        guard let members = FlatJSONReader.object(from: jsonBytes),
            case .string(let subject)? = members["sub"], !subject.isEmpty,
            case .string(let role)? = members["role"], let role = Role(rawValue: role),
            case .string(let ageBand)? = members["age_band"], let ageBand = AgeBand(rawValue: ageBand),
            case .bool(let parentalControls)? = members["pc"],
            case .string(let scope)? = members["scope"], let scope = Scope(rawValue: scope),
            case .integer(let issuedAt)? = members["iat"], Self.timestamps.contains(issuedAt),
            case .integer(let expiresAt)? = members["exp"], Self.timestamps.contains(expiresAt),
            expiresAt > issuedAt,
            case .string(let tokenID)? = members["jti"], !tokenID.isEmpty
        else { return nil }
        var guardianPinMinor: String?
        switch members["guardian_pin"] {
        case nil: break
        case .string(let minor)? where !minor.isEmpty: guardianPinMinor = minor
        default: return nil
        }
        self.init(
            subject: subject, role: role, ageBand: ageBand, parentalControls: parentalControls, scope: scope,
            issuedAt: issuedAt, expiresAt: expiresAt, tokenID: tokenID, guardianPinMinor: guardianPinMinor)
    }
}
