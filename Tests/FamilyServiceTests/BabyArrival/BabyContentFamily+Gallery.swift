import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
import KindredEvents
import KindredPostgres
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// Photos and events for the squish and arrival tests: photos are written straight to `family.baby_photos`,
/// as an upload would leave them, so that these tests do not depend on the byte pipeline.
extension BabyContentFamily {
    /// Adds a photo uploaded by mum; its id.
    func photo(_ mediaType: String = "image/jpeg") async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await stack.pool.query(
            """
            INSERT INTO family.baby_photos
                (profile_id, photo_id, uploaded_by, media_type, width, height, byte_count, request_id, created_at)
            VALUES (\(profile)::uuid, \(id)::uuid, \(mum.id)::uuid, \(mediaType), 640, 480, 1234, \(id)::text,
                    now())
            """)
        return id
    }

    /// The events on the family outbox, oldest first, as `WatchEvents` serves them: type and payload.
    func events() async throws -> [(type: String, event: Kindred_Family_V1_Event)] {
        try await FamilyEvents.outbox.appended(on: stack.pool).map { type, payload in
            (type, try Kindred_Family_V1_Event(serializedBytes: payload))
        }
    }

    /// The squish count stored on a photo's row.
    func storedSquishes(of photo: String) async throws -> Int {
        try await stack.pool.query(
            "SELECT squish_count FROM family.baby_photos WHERE profile_id = \(profile)::uuid AND photo_id = \(photo)::uuid"
        )[0].decode(Int.self)
    }

    /// An announcement of a baby born the day before the stack's clock.
    func arrival(name: String = "Lily", photo: String = "") -> Kindred_Family_V1_BabyArrival {
        let born = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: stack.clock.now.addingTimeInterval(-86_400))
        return Kindred_Family_V1_BabyArrival(
            name: name,
            birthDate: DateComponents(
                year: born.year!, month: born.month!, day: born.day!),
            birthTime: Kindred_Family_V1_BirthTime(hours: 14, minutes: 5), weightGrams: 3_450, lengthMm: 510,
            photoID: photo, message: "Mother and baby are doing well.")
    }

    /// Mum announces `arrival`.
    @discardableResult
    func announce(_ arrival: Kindred_Family_V1_BabyArrival? = nil) async throws
        -> Kindred_Family_V1_BabyArrival
    {
        try #require(
            try await family.announceArrival(
                .init(profileID: profile.description, arrival: arrival ?? self.arrival()), options: mum.bearer
            ).arrival)
    }
}
