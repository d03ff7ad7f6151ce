// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import Foundation
import KindredAPI
import KindredMessages
import KindredEvents
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import SocialService

/// Identity, family and social served for real on loopback over one test database, as they run in the stack:
/// family consumes identity's events (so a minor registered here gets controls with every restriction on),
/// and social reaches identity and family with its own client_credentials token.
struct SocialTestStack: Sendable {
    let base: FamilyTestStack
    let server: SocialTestServer
    let social: Kindred_Social_V1_SocialService.Client

    var pool: PostgresPool { base.pool }
    var clock: TestClock { base.clock }
    var family: Kindred_Family_V1_FamilyService.Client { base.family }
    /// What social's parts are built from, for tests of their rules below the RPCs.
    var context: SocialContext { server.context }

    /// Runs `body` with a stack on a fresh database, then stops it whatever happened.
    static func with(_ body: (SocialTestStack) async throws -> Void) async throws {
        try await FamilyTestStack.withIdentityEvents { base in
            try await SocialTestServer.with(base) { server in
                try await body(
                    SocialTestStack(
                        base: base, server: server,
                        social: Kindred_Social_V1_SocialService.Client(try RPCClient(target: server.target))))
            }
        }
    }

    /// Registers `username`, `age` years old, verified and signed in; a minor's controls exist on return.
    func register(_ username: String, age: Int) async throws -> TestUser {
        let user = try await base.register(username, age: age)
        if age < 18 {
            try await eventually("family made \(username)'s parental controls") {
                try await pool.query(
                    "SELECT 1 FROM family.parental_controls WHERE minor_id = \(user.id)::uuid"
                ).count == 1
            }
        }
        return user
    }

    /// Sets the named toggles of `minor`'s controls as a guardian's `UpdateParentalControls` does (the rest
    /// stay as they are): tests of social's rules need the setting, not the guardian's PIN ceremony.
    func setControls(
        of minor: TestUser, messagingFollowedOnly: Bool? = nil, publicEventsRestricted: Bool? = nil,
        eventJoinApprovalRequired: Bool? = nil, contentFiltering: Bool? = nil
    ) async throws {
        try await pool.query(
            """
            UPDATE family.parental_controls SET
                messaging_followed_only = coalesce(\(messagingFollowedOnly), messaging_followed_only),
                public_events_restricted = coalesce(\(publicEventsRestricted), public_events_restricted),
                event_join_approval_required = coalesce(\(eventJoinApprovalRequired), event_join_approval_required),
                content_filtering = coalesce(\(contentFiltering), content_filtering)
            WHERE minor_id = \(minor.id)::uuid
            """)
    }

    /// Registers an adult and makes them `minor`'s guardian through family's RPCs (invitation, acceptance).
    func guardian(_ username: String, of minor: TestUser) async throws -> TestUser {
        let guardian = try await register(username, age: 40)
        _ = try await base.link(guardian, to: minor)
        return guardian
    }

    /// Social's own access token (role service), as another service presents one.
    func serviceBearer() async throws -> CallOptions {
        try await context.people.credentials.callOptions(timeout: .seconds(10))
    }

    /// The events appended to the social outbox, oldest first, with their types.
    func outboxEvents() async throws -> [Kindred_Social_V1_Event] {
        try await SocialEvents.outbox.appended(on: pool).map { type, payload in
            var event = try Kindred_Social_V1_Event(serializedBytes: payload)
            event.type = type
            return event
        }
    }
}
#endif
