import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Calendar events' names, descriptions and locations and registry items' names and descriptions at rest
/// (`CalendarTexts`, `RegistryTexts`): sealed when written, nowhere in a dump of family's schema (their copies in
/// the activity log, its feed, notices and the event outbox are sealed too), read whole, and rows from before
/// sealing sealed by `keys rotate-data`.
@Suite struct ContentTextSealingTests {
    @Test func eventAndItemTextsAreNowhereInTheDumpAndAreReadWhole() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent("Zorblatt shower")
            let item = try await home.createItem("Quimbly pram")
            _ = try await home.family.purchaseRegistryItem(
                .init(profileID: home.profile.description, itemID: item.itemID), options: home.grandma.bearer)
            let dump = try await dataDump(of: "family", on: home.stack.pool)
            for marker in [
                "Zorblatt", "Quimbly", "Cake at four", "Grandma's garden", "The grey one", "shop.example.com",
                "meet.example.com",
            ] {
                #expect(!dump.contains(marker), "\(marker) is readable in the dump")
            }
            let read = try await Self.texts(home)
            #expect(
                read.events == [
                    [
                        "Zorblatt shower", "Cake at four.", "Grandma's garden",
                        "https://meet.example.com/shower",
                    ]
                ])
            #expect(read.items == [["Quimbly pram", "The grey one.", "https://shop.example.com/pram"]])
            #expect(event.name == "Zorblatt shower" && item.name == "Quimbly pram")
        }
    }

    @Test func textsFromBeforeSealingAreReadAndSealedByTheRotation() async throws {
        try await BabyContentFamily.with { home in
            _ = try await home.createEvent()
            _ = try await home.createItem()
            try await home.stack.pool.query(
                """
                UPDATE family.calendar_events
                SET name = 'Old party', description = 'Old cake', location = 'Old garden', texts_sealed = NULL,
                    video_call_url = 'https://Old.example.com/call', video_call_url_sealed = NULL
                """)
            try await home.stack.pool.query(
                """
                UPDATE family.registry_items SET name = 'Old pram', description = 'Old grey', texts_sealed = NULL,
                    link_url = 'https://Old.example.com/pram', link_url_sealed = NULL
                """)
            let before = try await Self.texts(home)
            #expect(
                before.events == [["Old party", "Old cake", "Old garden", "https://Old.example.com/call"]])
            #expect(before.items == [["Old pram", "Old grey", "https://Old.example.com/pram"]])

            let rotations =
                CalendarTexts.rotations(cipher: TestDataKeys.cipher, on: home.stack.pool)
                + RegistryTexts.rotations(cipher: TestDataKeys.cipher, on: home.stack.pool)
            for rotation in rotations {
                #expect(try await rotation.resealAll() == 1)
                #expect(try await rotation.resealAll() == 0)
            }
            let dump = try await dataDump(of: "family", on: home.stack.pool)
            #expect(!dump.contains("Old "))
            #expect(!dump.contains("Old.example"))
            let after = try await Self.texts(home)
            #expect(after.events == before.events && after.items == before.items)
        }
    }

    /// The texts of every event and item of the profile, as mum lists them.
    static func texts(_ home: BabyContentFamily) async throws -> (events: [[String]], items: [[String]]) {
        let profile = home.profile.description
        let events = try await home.family.listCalendarEvents(
            .init(profileID: profile), options: home.mum.bearer)
        let items = try await home.family.listRegistryItems(
            .init(profileID: profile), options: home.mum.bearer)
        return (
            events.events.map { [$0.name, $0.description, $0.location, $0.videoCallURL] },
            items.items.map { [$0.name, $0.description, $0.linkURL] }
        )
    }
}
