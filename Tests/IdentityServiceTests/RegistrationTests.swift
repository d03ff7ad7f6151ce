@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Registration")
struct RegistrationTests {
    @Test func anAdultAccountIsSelfDeclaredWithoutControlsAndMailedAVerificationLink() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.register("mia_r", born: (1990, 4, 12))
            #expect(account.ageBand == .adult)
            #expect(!account.parentalControls)
            #expect(!account.emailVerified)
            #expect(account.role == .user)
            #expect(account.ageAssurance == .selfDeclared)
            #expect(account.ageAssuredAt == test.clock.now)
            #expect(account.dateOfBirth == CalendarDate(year: 1990, month: 4, day: 12))
            #expect(account.id.description.dropFirst(14).first == "7")

            let mail = try await TestMailbox(pool).mail(to: "mia_r@example.com")
            #expect(mail.count == 1)
            #expect(mail.first?.kind == "verify_email")
            let token = try #require(mail.first?.tokenLines.first)
            #expect(mail.first?.body.contains("https://kindred.test/app/verify-email?token=\(token)") == true)
        }
    }

    @Test(
        arguments: [
            ((2010, 6, 15), TokenClaims.AgeBand.sixteenToSeventeen), ((2013, 6, 15), .thirteenToFifteen),
            ((2008, 6, 16), .sixteenToSeventeen), ((2008, 6, 15), .adult),
        ] as [((Int, Int, Int), TokenClaims.AgeBand)])
    func minorsGetTheirBandWithParentalControlsOn(born: (Int, Int, Int), band: TokenClaims.AgeBand)
        async throws
    {
        try await IdentityTestDatabase.withDatabase { pool in
            let account = try await TestAccounts(pool).register("teen", born: born)
            #expect(account.ageBand == band)
            #expect(account.parentalControls == band.isMinor)
        }
    }

    @Test func registrationEmitsUserRegisteredWithTheBandAndControls() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let account = try await TestAccounts(pool).register("teen", born: (2011, 1, 1))
            let events = try await TestEvents.all(pool)
            #expect(events.map(\.type) == ["user.registered"])
            #expect(
                events.first?.payload
                    == .userRegistered(
                        Kindred_Identity_V1_UserRegistered(
                            userID: account.id.description, ageBand: .ageBand1315, parentalControls: true)))
        }
    }

    @Test func thirteenTomorrowIsRefusedLeavingOnlyTheDaysCount() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            for username in ["kid_one", "kid_two"] {
                let error = await rpcError { try await test.register(username, born: (2013, 6, 16)) }
                #expect(error?.code == .failedPrecondition)
                #expect(error?.reason == "AGE_BELOW_MINIMUM")
                #expect(error?.message == "You must be at least 13 years old to have a Kindred account.")
            }
            let counts = try await pool.query(
                "SELECT day::text, attempts FROM identity.refused_registrations")
            #expect(try counts.decode((String, Int).self).map { "\($0.0) \($0.1)" } == ["2026-06-15 2"])
            #expect(try await pool.query("SELECT 1 FROM identity.accounts").isEmpty)
            #expect(try await pool.query("SELECT 1 FROM identity.email_tokens").isEmpty)
            #expect(try await TestMailbox(pool).all().isEmpty)
            #expect(try await TestEvents.all(pool).isEmpty)
        }
    }

    @Test func aTwentyNinthOfFebruaryBirthdayIsThirteenOnTheFirstOfMarch() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool, clock: TestClock("2025-02-28T23:59:59Z"))
            let early = await rpcError { try await test.register("leap_kid", born: (2012, 2, 29)) }
            #expect(early?.reason == "AGE_BELOW_MINIMUM")
            test.clock.set("2025-03-01T00:00:00Z")
            let account = try await test.register("leap_kid", born: (2012, 2, 29))
            #expect(account.ageBand == .thirteenToFifteen)
        }
    }

    @Test func usernamesAndEmailsAreTakenIgnoringCase() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await test.register("Mia_R")
            let username = await rpcError {
                try await test.accounts.register(TestAccounts.request("mia_r", email: "other@example.com"))
            }
            #expect(username?.code == .alreadyExists)
            #expect(username?.reason == "USERNAME_TAKEN")
            let email = await rpcError {
                try await test.accounts.register(TestAccounts.request("other", email: "MIA_R@EXAMPLE.COM"))
            }
            #expect(email?.code == .alreadyExists)
            #expect(email?.reason == "EMAIL_TAKEN")
            #expect(try await TestMailbox(pool).all().count == 1)
        }
    }

    @Test func aRetryWithTheSameRequestIDReturnsTheFirstAccountAndChangesNothing() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let request = TestAccounts.request("mia_r", requestID: "0192f5e0-retry")
            let first = try await test.accounts.register(request)
            test.clock.advance(seconds: 30)
            let retry = try await test.accounts.register(request)
            #expect(retry == first)
            #expect(try await TestMailbox(pool).all().count == 1)
            #expect(try await TestEvents.types(pool) == ["user.registered"])
        }
    }

    @Test func concurrentRetriesCreateOneAccountAndAllGetIt() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let request = TestAccounts.request("mia_r", requestID: "0192f5e0-burst")
            let accounts = try await withThrowingTaskGroup(of: AccountRecord.self) { group in
                for _ in 0..<8 { group.addTask { try await test.accounts.register(request) } }
                return try await group.reduce(into: [AccountRecord]()) { $0.append($1) }
            }
            #expect(accounts.count == 8)
            #expect(Set(accounts.map(\.id)).count == 1)
            #expect(
                try await pool.query("SELECT count(*) FROM identity.accounts")[0].decode(Int.self, column: 0)
                    == 1)
            #expect(try await TestMailbox(pool).all().count == 1)
            #expect(try await TestEvents.types(pool) == ["user.registered"])
        }
    }

    @Test func aRequestIDReusedForAnotherRegistrationRevealsNothing() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            _ = try await test.accounts.register(TestAccounts.request("mia_r", requestID: "guessable-1"))
            for other in [
                TestAccounts.request("someone", requestID: "guessable-1"),
                TestAccounts.request("mia_r", password: "another pass 2", requestID: "guessable-1"),
                TestAccounts.request("mia_r", born: (1991, 4, 12), requestID: "guessable-1"),
            ] {
                let error = await rpcError { try await test.accounts.register(other) }
                #expect(error?.code == .invalidArgument)
                #expect(error?.reason == "REQUEST_ID_REUSED")
                #expect(error?.message.contains("mia") == false)
            }
        }
    }

    @Test func theVerificationTokenIsStoredOnlyAsItsHash() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let account = try await TestAccounts(pool).register()
            let token = try await TestMailbox(pool).token(to: account.email)
            let stored = try await pool.query(
                "SELECT token_hash, expires_at - created_at = interval '24 hours' FROM identity.email_tokens")
            let (hash, lastsADay) = try stored[0].decode(([UInt8], Bool).self)
            #expect(hash == OpaqueToken(text: token).storageHash)
            #expect(lastsADay)
        }
    }
}
