import Foundation
import KindredHandlers
import KindredMessages
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

typealias Payload = Kindred_Family_V1_Event.OneOf_Payload

/// A family event of `kind` by `user` about `subject`, as a new activity (a fresh activity id): the same
/// value applied twice is a replay.
func familyEvent(
    _ kind: (Kindred_Family_V1_BabyActivityOccurred) -> Payload,
    by user: TestUser, subject: String, answer: Kindred_Family_V1_RsvpAnswer = .unspecified
) -> Kindred_Family_V1_Event {
    let activity = Kindred_Family_V1_BabyActivityOccurred(
        profileID: UUID().uuidString.lowercased(), activityID: UUID().uuidString.lowercased(),
        actorID: user.id, subjectID: subject, rsvpAnswer: answer)
    return Kindred_Family_V1_Event(payload: kind(activity))
}

extension GamificationTestStack {
    /// Applies `event` to the counters in a transaction of its own.
    func applyCounters(_ event: Kindred_Family_V1_Event) async throws {
        let counters = FamilyEventCounters(logger: context.logger)
        try await pool.transaction { tx in counters.apply(event, in: tx) }
    }

    /// `user`'s counters as GetActivityCounters answers them to `user`.
    func counters(of user: TestUser) async throws -> Kindred_Gamification_V1_ActivityCounters {
        try #require(try await gamification.getActivityCounters(.init(), options: user.bearer).counters)
    }
}
