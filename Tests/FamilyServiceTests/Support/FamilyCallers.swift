import Foundation
import KindredAuth
import KindredHandlers

/// Callers as a verified access token makes them: signed and verified for real, since only the verifier
/// makes a `Caller`.
enum FamilyCallers {
    private static let key = SigningKey()
    private static let verifier = TokenVerifier(keys: [key.verificationKey])

    /// A caller with `subject` (a new user id unless given), of `band` and `role`.
    static func caller(
        _ subject: String = UUIDv7.generate(at: Date()), band: TokenClaims.AgeBand = .adult,
        role: TokenClaims.Role = .user
    ) -> Caller {
        let now = Int64(Date().timeIntervalSince1970)
        let token = TokenSigner(key: key).sign(
            TokenClaims(
                subject: subject, role: role, ageBand: band, parentalControls: band != .adult, scope: .full,
                issuedAt: now, expiresAt: now + 900, tokenID: UUID().uuidString.lowercased()))
        return try! verifier.verify(token)
    }

    static func minor(_ band: TokenClaims.AgeBand = .thirteenToFifteen) -> Caller { caller(band: band) }
    static func adult() -> Caller { caller() }
    static let service = caller("social", role: .service)
    static let admin = caller(role: .admin)
}

extension Caller {
    /// The account id of a person `FamilyCallers` made: every caller but `service`.
    var id: UserID { accountUserID! }
}
