@testable import FamilyService
import FoundationEssentials
import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A mum whose baby Clementine is due three days after the stack's clock, followed by an aunt: the sealing tests'
/// family, written through the API so that every value is sealed. The clock stands decades from the day of the
/// run, so the dates a dump is searched for are held by no column that PostgreSQL's own clock writes.
struct BabySealingFamily {
    static let now = TestClock.farFromToday
    /// The due date, 2 days 14 hours after the clock: "less than 3 days".
    static let due = TestClock(now).date(3)
    /// The due date as stored, `YYYY-MM-DD`.
    static let dueText = TestClock(now).isoDay(3)
    /// Rosalind's birth date, the day before the clock, as stored.
    static let bornText = TestClock(now).isoDay(-1)

    let stack: FamilyTestStack
    let mum: TestUser
    let aunt: TestUser
    let profile: BabyProfileID

    var family: Kindred_Family_V1_FamilyService.Client { stack.family }

    /// Runs `body` against a fresh stack with this family in it.
    static func with(_ body: (BabySealingFamily) async throws -> Void) async throws {
        try await FamilyTestStack.with(clock: TestClock(now)) { stack in
            let mum = try await stack.register("mum", age: 32)
            let aunt = try await stack.register("aunt", age: 45)
            let created = try #require(
                try await stack.family.createBabyProfile(
                    .init(requestID: "clementine", name: "Clementine", expectedBirthDate: due, gender: .girl),
                    options: mum.bearer
                ).profile)
            let profile = try #require(BabyProfileID(created.profileID))
            try await stack.pool.query(
                """
                INSERT INTO family.baby_members (profile_id, user_id, role, joined_at)
                VALUES (\(profile)::uuid, \(aunt.id)::uuid, \(BabyRole.follower.rawValue)::smallint,
                    \(stack.clock.now))
                """)
            try await body(BabySealingFamily(stack: stack, mum: mum, aunt: aunt, profile: profile))
        }
    }

    /// Rosalind's arrival the day before the clock: 14:05, 3,457 g, 512 mm.
    static let arrival = Kindred_Family_V1_BabyArrival(
        name: "Rosalind", birthDate: TestClock(now).date(-1),
        birthTime: .init(hours: 14, minutes: 5), weightGrams: 3_457, lengthMm: 512,
        message: "Mother and baby are doing well.")

    /// Mum announces `arrival`.
    @discardableResult
    func announce(_ arrival: Kindred_Family_V1_BabyArrival = Self.arrival) async throws
        -> Kindred_Family_V1_BabyArrival
    {
        try #require(
            try await family.announceArrival(
                .init(profileID: profile.description, arrival: arrival), options: mum.bearer
            ).arrival)
    }

    /// Every column of `profile`'s rows in `family.baby_profiles` and `family.baby_arrivals`, as text: what a
    /// dump of the two tables shows of it.
    func storedRows() async throws -> String {
        try await stack.pool.query(
            """
            SELECT coalesce((SELECT p::text FROM family.baby_profiles p WHERE profile_id = \(profile)::uuid), '')
                || coalesce((SELECT a::text FROM family.baby_arrivals a WHERE profile_id = \(profile)::uuid), '')
            """
        )[0].decode(String.self)
    }

    /// The ids of the keys `profile`'s sealed values are sealed under, and how many plaintext values remain:
    /// (name, expected birth date, arrival's birth record).
    func sealing() async throws -> (keys: [String?], plaintext: Int) {
        let row = try await stack.pool.query(
            """
            SELECT p.name_sealed, p.expected_birth_date_sealed, a.birth_sealed, a.message_sealed,
                (p.name IS NOT NULL)::int + (p.expected_birth_date IS NOT NULL)::int
                    + coalesce((a.birth_date IS NOT NULL)::int, 0) + coalesce((a.message IS NOT NULL)::int, 0)
            FROM family.baby_profiles p LEFT JOIN family.baby_arrivals a USING (profile_id)
            WHERE p.profile_id = \(profile)::uuid
            """)[0]
        let (name, date, birth, message, plaintext) = try row.decode(
            ([UInt8]?, [UInt8]?, [UInt8]?, [UInt8]?, Int).self)
        return ([name, date, birth, message].map { $0.flatMap(FieldCipher.keyID(of:)) }, plaintext)
    }
}
