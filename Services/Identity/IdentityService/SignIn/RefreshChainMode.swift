import FoundationEssentials
import KindredAuth
import KindredHandlers

/// What every token a refresh chain hands out carries beyond its account: a sign-in's chain is `full` for as
/// long as it is used; a family device's mode (`IssueDeviceModeTokens`) fixes the scope, and parent mode an end.
struct RefreshChainMode: Sendable, Equatable {
    /// How long parent mode lasts after its proof.
    static let parentSession: Duration = .seconds(30 * 60)

    let scope: TokenClaims.Scope
    /// Parent mode: from this instant the chain refuses to refresh, and no access token of it lives past it.
    let sessionEndsAt: Date?
    /// Parent mode proven with a guardian PIN: the minor whose PIN it was, the `guardian_pin` claim of every
    /// token of the chain.
    var guardianPinMinor: UserID? = nil

    /// A sign-in's chain: full tokens until it is revoked or unused for the refresh token's lifetime.
    static let signIn = RefreshChainMode(scope: .full, sessionEndsAt: nil)

    /// Child mode: read-only tokens, refreshed as long as a sign-in's chain would be.
    static let child = RefreshChainMode(scope: .childReadOnly, sessionEndsAt: nil)

    /// Parent mode proven at `now` (with `minor`'s guardian PIN when given): full tokens for `parentSession`.
    /// The end is a whole second, the resolution of a token's `exp`, so that the last access token can end
    /// exactly at it.
    static func parent(provenAt now: Date, guardianPinOf minor: UserID? = nil) -> RefreshChainMode {
        let end = now.timeIntervalSince1970.rounded(.down) + Double(parentSession.components.seconds)
        return RefreshChainMode(
            scope: .full, sessionEndsAt: Date(timeIntervalSince1970: end), guardianPinMinor: minor)
    }
}
