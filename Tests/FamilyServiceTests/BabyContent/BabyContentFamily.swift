import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A baby profile to test content on: mum owns it, grandma and grandpa follow it, and a stranger belongs to
/// it not at all.
struct BabyContentFamily {
    let stack: FamilyTestStack
    let mum: TestUser
    let grandma: TestUser
    let grandpa: TestUser
    let stranger: TestUser
    let profile: BabyProfileID

    var family: Kindred_Family_V1_FamilyService.Client { stack.family }

    /// Runs `body` against a fresh stack with this family in it (its gallery's store made by `photos`).
    static func with(
        photos: (FilesystemPhotoStore) -> any PhotoObjectStore = { $0 },
        _ body: (BabyContentFamily) async throws -> Void
    ) async throws {
        try await FamilyTestStack.with(photos: photos) { stack in
            let mum = try await stack.register("mum", age: 32)
            let grandma = try await stack.register("grandma", age: 68)
            let grandpa = try await stack.register("grandpa", age: 70)
            let stranger = try await stack.register("stranger", age: 40)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, grandpa])
            try await body(
                BabyContentFamily(
                    stack: stack, mum: mum, grandma: grandma, grandpa: grandpa, stranger: stranger,
                    profile: profile))
        }
    }

    /// A well-formed event called `name`, starting a week after the stack's clock, in Paris.
    func event(_ name: String = "Baby shower") -> Kindred_Family_V1_CalendarEvent {
        Kindred_Family_V1_CalendarEvent(
            name: name,
            startTime: stack.clock.now.addingTimeInterval(7 * 86_400),
            timeZone: "Europe/Paris", description: "Cake at four.",
            videoCallURL: "https://meet.example.com/shower",
            location: "Grandma's garden")
    }

    /// Creates an event as mum and returns it.
    func createEvent(_ name: String = "Baby shower") async throws -> Kindred_Family_V1_CalendarEvent {
        try await family.createCalendarEvent(
            .init(requestID: UUID().uuidString, profileID: profile.description, event: event(name)),
            options: mum.bearer
        ).event!
    }

    /// Creates a registry item as mum and returns it.
    func createItem(_ name: String = "Pram") async throws -> Kindred_Family_V1_RegistryItem {
        try await family.createRegistryItem(
            .init(
                requestID: UUID().uuidString, profileID: profile.description,
                item: .init(
                    name: name, description: "The grey one.", linkURL: "https://shop.example.com/pram")),
            options: mum.bearer
        ).item!
    }

    /// The kinds the profile's activity log recorded, each as often as it was, in the enum's order (entries
    /// made within one millisecond of the frozen test clock have no order of their own).
    func activityKinds() async throws -> [BabyActivityKind] {
        try await stack.pool.query(
            "SELECT kind FROM family.baby_activity WHERE profile_id = \(profile)::uuid ORDER BY kind"
        ).map { try #require(BabyActivityKind(rawValue: try $0.decode(Int.self, column: 0))) }
    }

    /// How many rows of `table` belong to the profile.
    func count(_ table: String) async throws -> Int {
        try await stack.pool.query(
            PostgresQuery(
                unsafeSQL: "SELECT count(*) FROM family.\(table) WHERE profile_id = '\(profile)'::uuid")
        )[0].decode(Int.self)
    }
}
