@testable import IdentityService
import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Date of birth change")
struct DateOfBirthChangeTests {
    static func date(_ year: Int, _ month: Int, _ day: Int) -> DateComponents {
        DateComponents(year: year, month: month, day: day)
    }

    @Test func aChangeWaitsForTheEmailedConfirmationThenRederivesTheBand() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r", born: (1990, 4, 12))
            try await test.accounts.requestDateOfBirthChange(
                accountID: account.id, password: "correct horse 1", dateOfBirth: Self.date(2010, 1, 31))

            let pending = try await test.accounts.me(TestCallers.of(account))
            #expect(pending.dateOfBirthChangePending)
            #expect(pending.dateOfBirth == account.dateOfBirth)
            #expect(pending.ageBand == .adult)
            let mail = try #require(try await TestMailbox(pool).mail(to: account.email).last)
            #expect(mail.kind == "confirm_date_of_birth")
            #expect(mail.body.contains("2010-01-31"))

            test.clock.advance(seconds: 3_600)
            #expect(
                try await test.accounts.confirmDateOfBirthChange(token: mail.tokenLines[0])
                    == .sixteenToSeventeen)
            let changed = try await test.accounts.me(TestCallers.of(account))
            #expect(changed.dateOfBirth == CalendarDate(year: 2010, month: 1, day: 31))
            #expect(changed.ageBand == .sixteenToSeventeen)
            #expect(changed.parentalControls)
            #expect(changed.ageAssurance == .verifiedChange)
            #expect(changed.ageAssuredAt == test.clock.now)
            #expect(!changed.dateOfBirthChangePending)
        }
    }

    @Test func theWrongPasswordIsRefusedAndNothingIsMailed() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            let error = await rpcError {
                try await test.accounts.requestDateOfBirthChange(
                    accountID: account.id, password: "not my password 1", dateOfBirth: Self.date(1991, 1, 1))
            }
            #expect(error?.code == .permissionDenied)
            #expect(error?.reason == "PASSWORD_INCORRECT")
            #expect(try await TestMailbox(pool).mail(to: account.email).count == 1)
            #expect(try await !test.accounts.me(TestCallers.of(account)).dateOfBirthChangePending)
        }
    }

    @Test func aDateThatMakesTheUserUnderThirteenIsRefused() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            let error = await rpcError {
                try await test.accounts.requestDateOfBirthChange(
                    accountID: account.id, password: "correct horse 1", dateOfBirth: Self.date(2013, 6, 16))
            }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.reason == "AGE_BELOW_MINIMUM")
            #expect(try await TestMailbox(pool).mail(to: account.email).count == 1)
        }
    }

    @Test func malformedDatesAndAMissingPasswordAreNamedTogether() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            let error = await rpcError {
                try await test.accounts.requestDateOfBirthChange(
                    accountID: account.id, password: "", dateOfBirth: Self.date(2023, 2, 29))
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.badFields == ["password", "date_of_birth"])
        }
    }

    @Test func aNewRequestReplacesThePendingOne() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            let change = { (year: Int) in
                try await test.accounts.requestDateOfBirthChange(
                    accountID: account.id, password: "correct horse 1", dateOfBirth: Self.date(year, 1, 1))
                return try await TestMailbox(pool).token(to: account.email)
            }
            let first = try await change(1980)
            let second = try await change(1985)
            #expect(
                await rpcError { try await test.accounts.confirmDateOfBirthChange(token: first) }?.reason
                    == "LINK_ALREADY_USED")
            #expect(try await test.accounts.confirmDateOfBirthChange(token: second) == .adult)
            #expect(try await test.accounts.me(TestCallers.of(account)).dateOfBirth.year == 1985)
        }
    }

    @Test func anExpiredConfirmationChangesNothing() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.registerVerified("mia_r")
            try await test.accounts.requestDateOfBirthChange(
                accountID: account.id, password: "correct horse 1", dateOfBirth: Self.date(1980, 1, 1))
            test.clock.advance(seconds: 24 * 3_600)
            #expect(try await !test.accounts.me(TestCallers.of(account)).dateOfBirthChangePending)
            let token = try await TestMailbox(pool).token(to: account.email)
            #expect(
                await rpcError { try await test.accounts.confirmDateOfBirthChange(token: token) }?.reason
                    == "LINK_EXPIRED")
            #expect(try await test.accounts.me(TestCallers.of(account)).dateOfBirth.year == 1990)
        }
    }

    @Test func aMinorWhoStaysOneKeepsTheControlsTheirFamilySet() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let teen = try await test.registerVerified("teen", born: (2010, 1, 1))
            try await pool.query(
                "UPDATE identity.accounts SET parental_controls = false WHERE id = \(teen.id)")
            try await test.accounts.requestDateOfBirthChange(
                accountID: teen.id, password: "correct horse 1", dateOfBirth: Self.date(2012, 1, 1))
            #expect(
                try await test.accounts.confirmDateOfBirthChange(
                    token: try await TestMailbox(pool).token(to: teen.email))
                    == .thirteenToFifteen)
            #expect(try await !test.accounts.me(TestCallers.of(teen)).parentalControls)
        }
    }

    @Test func aMinorCorrectedToAnAdultComesOfAgeWithControlsOff() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let teen = try await test.registerVerified("teen", born: (2010, 1, 1))
            try await test.accounts.requestDateOfBirthChange(
                accountID: teen.id, password: "correct horse 1", dateOfBirth: Self.date(2008, 1, 1))
            #expect(
                try await test.accounts.confirmDateOfBirthChange(
                    token: try await TestMailbox(pool).token(to: teen.email))
                    == .adult)
            #expect(try await !test.accounts.me(TestCallers.of(teen)).parentalControls)
            let events = try await TestEvents.all(pool)
            #expect(events.map(\.type) == ["user.registered", "user.email_verified", "user.came_of_age"])
            #expect(
                events.last?.payload
                    == .userCameOfAge(Kindred_Identity_V1_UserCameOfAge(userID: teen.id.description)))
        }
    }
}
