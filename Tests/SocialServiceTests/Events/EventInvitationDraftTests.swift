import Foundation
import KindredHandlers
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `InviteToEvent`'s draft, read in its handler: the event and each invitee parsed once, every bad field named in
/// one answer, each invitee kept once in the order first given.
@Suite struct EventInvitationDraftTests {
    @Test func everyBadFieldIsNamedInOneAnswer() {
        let empty = #expect(throws: RPCError.self) { try EventInvitationDraft(.init(eventID: "party")) }
        #expect(empty?.badFields == ["event_id", "user_ids"])
        let malformed = #expect(throws: RPCError.self) {
            try EventInvitationDraft(.init(eventID: "party", userIds: [UUIDv7.generate(at: Date()), "sam"]))
        }
        #expect(malformed?.badFields == ["event_id", "user_ids[1]"])
    }

    @Test func eachInviteeIsKeptOnceInTheOrderFirstGivenWhateverItsCase() throws {
        let (event, sam, ivy) = (
            EventID.generate(at: Date()), UserID.generate(at: Date()), UserID.generate(at: Date())
        )
        let draft = try EventInvitationDraft(
            .init(
                eventID: event.description.uppercased(),
                userIds: [sam.description, ivy.description, sam.description.uppercased()]))
        #expect(draft.event == event && draft.invitees == [sam, ivy])
    }
}
