import Foundation
import KindredAPI
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// What a stolen dump of every schema shows after a family used the whole stack (issue 33): a scenario writes
/// unique markers through the services' APIs (email addresses, names, a baby's name, an event, a registry item, a
/// comment, links, a message, an arrival that gamification's consumer reveals, a guardian's and a baby profile's
/// invitation, a guardian PIN reset link), waits for the outboxes and the consumer, then
/// dumps identity's, family's, social's and gamification's schemas and finds none of the markers, plain, hex or
/// base64. The per-column sealing tests (`BabyDetailSealingTests`, `CommentSealingTests`, …) check one table
/// each; this one catches a copy in a table nobody thought of.
@Suite struct WholeDumpTests {
    static let markers = [
        "Ottilwyn", "Quarrendel", "Frobisher party", "Marzipan torte", "Tilbury garden", "Zephyrine pram",
        "Cobaltgrey wheels", "Grumbleweed says hi", "Vellichor secret", "Wrennabel", "Tumbleroo has landed",
        "Glimmerquill", "Brackenfold",
    ]

    @Test func noMarkerWrittenThroughTheServicesIsReadableInADumpOfAnySchema() async throws {
        try await GamificationTestStack.with { stack in
            let mum = try await stack.register("mum", age: 32)
            let grandma = try await stack.register("grandma", age: 68)
            let family = stack.social.family
            _ = try await family.updateProfile(
                .init(
                    updateMask: ["first_name", "last_name"],
                    profile: .init(firstName: "Ottilwyn", lastName: "Quarrendel")),
                options: mum.bearer)
            let profile = try await stack.social.base.babyProfile(ownedBy: mum, followers: [grandma])
                .description
            let event = try #require(
                try await family.createCalendarEvent(
                    .init(
                        requestID: "party", profileID: profile,
                        event: .init(
                            name: "Frobisher party",
                            startTime: stack.clock.now.addingTimeInterval(7 * 86_400),
                            timeZone: "Europe/Paris", description: "Marzipan torte",
                            videoCallURL: "https://meet.example.com/Glimmerquill", location: "Tilbury garden")
                    ),
                    options: mum.bearer
                ).event)
            _ = try await family.createRegistryItem(
                .init(
                    requestID: "pram", profileID: profile,
                    item: .init(
                        name: "Zephyrine pram", description: "Cobaltgrey wheels",
                        linkURL: "https://shop.example.com/Brackenfold")),
                options: mum.bearer)
            _ = try await family.addComment(
                .init(
                    requestID: "hi",
                    target: .init(profileID: profile, target: .calendarEventID(event.eventID)),
                    text: "Grumbleweed says hi"),
                options: grandma.bearer)
            let invited = try await Self.inviteAndResetAPin(stack, profile: profile, owner: mum)
            try await stack.befriend(mum, grandma)
            _ = try await stack.social.social.sendMessage(
                .init(requestID: "secret", recipientUserID: grandma.id, text: "Vellichor secret"),
                options: mum.bearer)
            try await stack.withFamilyEvents {
                var arrival = Self.arrival(named: "Wrennabel", before: stack.clock.now)
                arrival.message = "Tumbleroo has landed"
                _ = try await family.announceArrival(
                    .init(profileID: profile, arrival: arrival), options: mum.bearer)
                try await eventually("gamification has consumed every family event") {
                    try await Self.familyEventsConsumed(on: stack.pool)
                }
            }

            let markers = Self.markers + [mum.email, grandma.email] + invited
            for schema in ["identity", "family", "social", "gamification"] {
                let dump = try await dataDump(of: schema, on: stack.pool)
                #expect(readableMarkers(markers, in: dump).isEmpty, "readable in a dump of \(schema)")
            }
            // What stays plain is found, so the dump and the search work: a username is public.
            let identity = try await dataDump(of: "identity", on: stack.pool)
            #expect(readableMarkers([grandma.username], in: identity) == [grandma.username])
        }
    }

    @Test func theSearchFindsAMarkerPlainAsHexAndInBase64AtEveryAlignment() {
        let marker = "Vellichor secret"
        let hex = Array(marker.utf8).map { String($0, radix: 16) }.joined()
        #expect(readableMarkers([marker], in: "x \\x00\(hex)ff y") == [marker])
        for prefix in ["", "a", "ab"] {
            let base64 = Base64.encode(Array((prefix + marker + "tail").utf8))
            #expect(
                readableMarkers([marker], in: "payload \(base64) end") == [marker], "after \(prefix.count)")
        }
        #expect(readableMarkers([marker], in: "nothing here").isEmpty)
    }

    /// A minor invites a guardian (whose address the invitation keeps), the guardian sets the minor's PIN and
    /// asks for a reset link, and `owner` invites an aunt to `profile`: the addresses and the live link.
    static func inviteAndResetAPin(_ stack: GamificationTestStack, profile: String, owner: TestUser)
        async throws
        -> [String]
    {
        let family = stack.social.family
        let kid = try await stack.register("kid", age: 14)
        let dad = try await stack.social.guardian("dad", of: kid)
        _ = try await family.setGuardianPin(
            .init(minorUserID: kid.id, pin: "4821", pinConfirmation: "4821"), options: dad.bearer)
        _ = try await family.requestGuardianPinReset(.init(minorUserID: kid.id), options: dad.bearer)
        let resetLink = try await stack.social.base.familyMail.token(to: dad.email)
        let aunt = "pemberwick.aunt@example.com"
        _ = try await family.inviteToBabyProfile(
            .init(requestID: "aunt", profileID: profile, email: aunt, role: .follower), options: owner.bearer)
        return [kid.email, dad.email, resetLink, aunt]
    }

    /// A baby born the day before `now`.
    static func arrival(named name: String, before now: Date) -> Kindred_Family_V1_BabyArrival {
        let born = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: now.addingTimeInterval(-86_400))
        return Kindred_Family_V1_BabyArrival(
            name: name,
            birthDate: DateComponents(year: born.year!, month: born.month!, day: born.day!),
            birthTime: Kindred_Family_V1_BirthTime(hours: 6, minutes: 40), weightGrams: 3_210, lengthMm: 495)
    }

    /// Whether family's outbox is sequenced and gamification's consumer stands at its newest event.
    static func familyEventsConsumed(on pool: PostgresPool) async throws -> Bool {
        try await pool.query(
            """
            SELECT NOT EXISTS (SELECT 1 FROM family.event_outbox WHERE cursor IS NULL)
                AND coalesce((SELECT cursor FROM gamification.event_cursors WHERE source = 'family'), 0)
                    >= (SELECT coalesce(max(cursor), 0) FROM family.event_outbox)
            """
        )[0].decode(Bool.self)
    }
}
