import Foundation
import KindredHandlers
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Logging
import Testing

/// Typed ids: parsed once, whatever the case, always printed and bound in one canonical form.
@Suite struct IDTests {
    static let canonical = "0190c3a4-5b6d-7e8f-9a0b-1c2d3e4f5a6b"

    @Test(arguments: [canonical, canonical.uppercased(), "0190C3A4-5b6d-7E8F-9a0b-1C2D3E4F5A6B"])
    func anyCaseParsesToTheCanonicalLowercaseText(text: String) throws {
        let id = try #require(UserID(text))
        #expect(id.description == Self.canonical)
        #expect(id == UserID(Self.canonical))
        #expect(Set([id, UserID(Self.canonical)!]).count == 1)
    }

    @Test(arguments: [
        "", "garbage", "{\(canonical)}", " \(canonical)", "\(canonical) ", "0190c3a45b6d7e8f9a0b1c2d3e4f5a6b",
        "0190c3a4-5b6d-7e8f-9a0b-1c2d3e4f5a6g", "urn:uuid:\(canonical)",
        "0190c3a45-b6d-7e8f-9a0b-1c2d3e4f5a6b",
        "0190c3a4-5b6d-7e8f-9a0b-1c2d3e4f5a-b", "0190c3a4-5b6d-7e8f-9a0b-1c2d3e4f5aé",
    ])
    func anythingButTheDashedHexFormIsRefused(text: String) {
        #expect(UserID(text) == nil)
    }

    @Test func anyUUIDReadsAndPrintsAsFoundationWouldAndSortsAsItsText() throws {
        let ids = (0..<200).map { _ in UserID(UUID()) }
        for id in ids {
            #expect(id.description == id.uuid.uuidString.lowercased())
            #expect(UserID(id.uuid.uuidString) == id)
        }
        #expect(ids.sorted().map(\.description) == ids.map(\.description).sorted())
    }

    @Test func aGeneratedIDIsAVersionSevenUUIDThatSortsByItsInstant() throws {
        let earlier = UserID.generate(at: Date(timeIntervalSince1970: 1_790_000_000))
        let later = UserID.generate(at: Date(timeIntervalSince1970: 1_790_000_001))
        #expect(UserID(earlier.description) == earlier)
        #expect(earlier.description.dropFirst(14).first == "7")
        #expect(earlier.description < later.description)
    }

    @Test func aDraftNamesAMissingAndAMalformedIDInSentences() {
        var violations = FieldViolations()
        let missing: UserID? = violations.id("user_id", "")
        let malformed: UserID? = violations.id("target.user_id", "nope")
        let parsed: UserID? = violations.id("friend_id", Self.canonical.uppercased())
        #expect(missing == nil && malformed == nil)
        #expect(parsed?.description == Self.canonical)
        #expect(violations.violations.map(\.field) == ["user_id", "target.user_id"])
        #expect(
            violations.violations.map(\.description) == [
                "User id is required.", "User id is not a valid id.",
            ])
    }

    @Test func aListOfIDsNamesEachBadOneByItsIndex() {
        var violations = FieldViolations()
        let ids: [UserID]? = violations.ids(
            "user_ids", [Self.canonical, "x", Self.canonical.uppercased(), ""])
        #expect(ids == nil)
        #expect(violations.violations.map(\.field) == ["user_ids[1]", "user_ids[3]"])
        var clean = FieldViolations()
        #expect(clean.ids("user_ids", [Self.canonical.uppercased()]) == [UserID(Self.canonical)!])
    }

    private enum Photo {}

    @Test func aPairOfIDsOfTwoKindsNamesEachBadOneInOneAnswer() throws {
        let refused = #expect(throws: RPCError.self) {
            let _: (UserID, ID<Photo>) = try FieldViolations.ids(("profile_id", "lily"), ("photo_id", ""))
        }
        #expect(refused?.code == .invalidArgument)
        #expect(refused?.badFields == ["profile_id", "photo_id"])
        let second = #expect(throws: RPCError.self) {
            let _: (UserID, ID<Photo>) = try FieldViolations.ids(
                ("profile_id", Self.canonical), ("photo_id", "x"))
        }
        #expect(second?.badFields == ["photo_id"])
        let (user, photo): (UserID, ID<Photo>) = try FieldViolations.ids(
            ("profile_id", Self.canonical.uppercased()), ("photo_id", Self.canonical))
        #expect(user.description == Self.canonical && photo.description == Self.canonical)
    }

    @Test func anIDBindsAsAUUIDAndDecodesFromAUUIDOrItsText() async throws {
        let id = try #require(UserID(Self.canonical.uppercased()))
        let others = [id, UserID.generate(at: Date())]
        try await TestDatabase.with("ids", schemas: [], logger: Logger(label: "ids")) { pool in
            let row = try await pool.query(
                """
                SELECT pg_typeof(\(id))::text, \(id), \(id)::text, \(id) = \(Self.canonical)::uuid,
                    \(id) = ANY(\(PostgresArray(others)))
                """)[0]
            let (type, asUUID, asText, equal, found) = try row.decode(
                (String, UserID, UserID, Bool, Bool).self)
            #expect(type == "uuid")
            #expect(asUUID == id && asText == id)
            #expect(equal && found)
        }
    }
}
