import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
@testable import SocialService
import Testing

/// What the events tests set up: events made through the RPC, and the graph and report rows the other
/// parts keep, written directly (those parts are built beside this one).
extension SocialTestStack {
    /// `organizer` creates an event one second after the previous one (the stack's clock stands still
    /// otherwise), so a feed's order is the order of creation.
    @discardableResult
    func createEvent(
        _ title: String, by organizer: TestUser, public isPublic: Bool = true, mature: Bool = false,
        media: [Kindred_Social_V1_MediaInput] = []
    ) async throws -> Kindred_Social_V1_SocialEvent {
        clock.advance(seconds: 1)
        let request = Kindred_Social_V1_CreateEventRequest(
            requestID: "create-\(title)", title: title, description: "All welcome",
            startsAt: Date(timeIntervalSince1970: 1_830_000_000), place: "The park",
            visibility: isPublic ? .public : .private, mature: mature, media: media)
        return try #require(try await social.createEvent(request, options: organizer.bearer).event)
    }

    /// Makes `one` and `other` friends, as accepting a friend request does (a row per side).
    func befriend(_ one: TestUser, _ other: TestUser) async throws {
        try await pool.query(
            """
            INSERT INTO social.friendships VALUES (\(one.id)::uuid, \(other.id)::uuid, now()),
                                                  (\(other.id)::uuid, \(one.id)::uuid, now())
            """)
    }

    func follow(_ follower: TestUser, _ followee: TestUser) async throws {
        try await pool.query(
            "INSERT INTO social.follows VALUES (\(follower.id)::uuid, \(followee.id)::uuid, now())")
    }

    func block(_ blocker: TestUser, _ blocked: TestUser) async throws {
        try await pool.query(
            "INSERT INTO social.blocks VALUES (\(blocker.id)::uuid, \(blocked.id)::uuid, now())")
    }

    /// Sets how many people reported content `id` of `kind`, as the reports part keeps the tally.
    func setReports(_ reporters: Int, of kind: Kindred_Social_V1_ContentKind, _ id: String) async throws {
        try await pool.query(
            """
            INSERT INTO social.report_tallies VALUES (\(kind.rawValue)::smallint, \(id)::uuid, \(reporters))
            ON CONFLICT (content_kind, content_id) DO UPDATE SET reporters = excluded.reporters
            """)
    }

    /// `guardian` decides approval request `approvalID` through family's RPC, as their app does.
    func decide(_ approvalID: String, approve: Bool, by guardian: TestUser) async throws {
        _ = try await family.decideApprovalRequest(
            .init(approvalID: approvalID, approve: approve), options: guardian.bearer)
    }

    /// Event `eventID` as `user` opens it.
    func open(_ eventID: String, as user: TestUser) async throws -> Kindred_Social_V1_SocialEvent {
        try #require(try await social.getEvent(.init(eventID: eventID), options: user.bearer).event)
    }
}
