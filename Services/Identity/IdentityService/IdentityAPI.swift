import KindredAPI
import KindredEvents

/// `kindred.identity.v1.IdentityService`: each RPC reads the request, checks the caller, and hands the rule
/// to the store that owns it. The RPCs are grouped by concern in the `IdentityAPI+*.swift` files.
struct IdentityAPI: Kindred_Identity_V1_IdentityService.Service {
    /// Sign-in, tokens, signing keys and password reset.
    let credentials: Credentials
    /// Registration, verification, date-of-birth changes, reads, deletion, compliance, coming of age.
    let accounts: Accounts
    /// The `identity.event_outbox` as streams, for `WatchEvents`.
    let events: EventFeed
}
