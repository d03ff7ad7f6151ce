import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Comments' texts at rest (`CommentTexts`): sealed when written, listed whole, and comments from before
/// sealing sealed by `keys rotate-data`.
@Suite struct CommentSealingTests {
    @Test func aCommentsTextIsSealedAndOldCommentsAreSealedByTheRotation() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let target = Kindred_Family_V1_CommentTarget(
                profileID: home.profile.description, target: .calendarEventID(event.eventID))
            _ = try await home.family.addComment(
                .init(requestID: "c", target: target, text: "Wobblethorpe is here"),
                options: home.grandma.bearer)
            #expect(!(try await Self.rows(home)).contains("Wobblethorpe"))
            #expect(try await Self.texts(home, target) == ["Wobblethorpe is here"])

            try await home.stack.pool.query(
                "UPDATE family.baby_comments SET body = 'Before', body_sealed = NULL")
            #expect(try await Self.texts(home, target) == ["Before"])
            let rotation = CommentTexts.rotation(cipher: TestDataKeys.cipher, on: home.stack.pool)
            #expect(try await rotation.resealAll() == 1)
            #expect(try await rotation.resealAll() == 0)
            #expect(!(try await Self.rows(home)).contains("Before"))
            #expect(try await Self.texts(home, target) == ["Before"])
        }
    }

    /// Every column of the comments' rows as text (a bytea as hex), as a stolen dump would show them.
    static func rows(_ home: BabyContentFamily) async throws -> String {
        try await home.stack.pool.query(
            "SELECT coalesce(string_agg(c::text, ' '), '') FROM family.baby_comments c")[0].decode(
                String.self)
    }

    static func texts(_ home: BabyContentFamily, _ target: Kindred_Family_V1_CommentTarget) async throws
        -> [String]
    {
        try await home.family.listComments(.init(target: target), options: home.mum.bearer).comments.map(
            \.text)
    }
}
