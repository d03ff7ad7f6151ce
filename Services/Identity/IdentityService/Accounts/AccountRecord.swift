import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages

/// An account as the owner sees it: everything but the password hash.
struct AccountRecord: Sendable, Equatable {
    /// How the account's age was assured (`identity.accounts.age_assurance_method`).
    enum AgeAssurance: String, Sendable {
        case selfDeclared = "self_declared"
        case verifiedChange = "verified_change"
    }

    let id: UserID
    let username: String
    let email: String
    let emailVerified: Bool
    let dateOfBirth: CalendarDate
    let ageBand: TokenClaims.AgeBand
    let parentalControls: Bool
    /// `user` or `admin`; services have no account.
    let role: TokenClaims.Role
    let createdAt: Date
    let ageAssurance: AgeAssurance
    let ageAssuredAt: Date
    let dateOfBirthChangePending: Bool

    /// The owner's view.
    var proto: Kindred_Identity_V1_Account {
        Kindred_Identity_V1_Account(
            userID: id.description, username: username, email: email, emailVerified: emailVerified,
            dateOfBirth: dateOfBirth.proto, ageBand: ageBand.proto, parentalControls: parentalControls,
            role: role == .admin ? .admin : .user, createdAt: createdAt,
            ageAssuranceMethod: ageAssurance == .selfDeclared ? .selfDeclared : .verifiedChange,
            ageAssuredAt: ageAssuredAt,
            dateOfBirthChangePending: dateOfBirthChangePending)
    }
}
